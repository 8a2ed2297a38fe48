import { describe, expect, it } from 'vitest';
import { between } from '../../scripts/paths.ts';
import { stateText } from './model-paths.ts';

// `npm run paths`: the readable state names and the --from / --to filter.

const step = (state: string) => ({ event: 'E', detail: '', guards: [], state });
const paths = [
  { name: 'a', steps: [step('opening'), step('chatting.steps.idle + chatting.messages.quiet')] },
  { name: 'b', steps: [step('opening'), step('failed')] },
  { name: 'c', steps: [step('chatting.steps.signingUp + chatting.messages.quiet'), step('opening')] },
];

describe('npm run paths', () => {
  it('names a state value by its dotted paths, parallel regions joined', () => {
    expect(stateText('idle')).toBe('idle');
    expect(stateText({ chatting: { steps: 'idle', messages: 'quiet' } })).toBe(
      'chatting.steps.idle + chatting.messages.quiet',
    );
    expect(stateText({ account: { authenticated: 'ready' } })).toBe('account.authenticated.ready');
  });

  it('keeps the paths that pass a state matching --from and later one matching --to', () => {
    expect(between(paths, null, null).map((p) => p.name)).toEqual(['a', 'b', 'c']);
    expect(between(paths, 'opening', 'steps.idle').map((p) => p.name)).toEqual(['a']);
    expect(between(paths, null, 'failed').map((p) => p.name)).toEqual(['b']);
    // Order matters: signingUp comes before opening in c, not after.
    expect(between(paths, 'signingUp', 'opening').map((p) => p.name)).toEqual(['c']);
    expect(between(paths, 'opening', 'signingUp').map((p) => p.name)).toEqual([]);
    expect(between(paths, '(start)', 'opening').map((p) => p.name)).toEqual(['a', 'b', 'c']);
  });
});
