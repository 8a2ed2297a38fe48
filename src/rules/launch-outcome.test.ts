import { describe, expect, it } from 'vitest';
import { childOutcome } from './launch-outcome.ts';
import type { Event } from '../../openapi/types.ts';

const event = (fields: Partial<Event>): Event => ({
  id: 1,
  source: 'agent',
  message: '',
  timestamp: '2026-11-25T00:00:00Z',
  ...fields,
});

describe('childOutcome', () => {
  it('completes on a finish action, with the pull-request link it names', () => {
    expect(
      childOutcome(
        event({ action: 'finish', args: { final_thought: 'Opened https://github.com/octo/widgets/pull/4.' } }),
      ),
    ).toEqual({ type: 'CHILD_FINISHED', prUrl: 'https://github.com/octo/widgets/pull/4' });
    expect(childOutcome(event({ action: 'finish', message: 'Done, no PR.' }))).toEqual({
      type: 'CHILD_FINISHED',
      prUrl: null,
    });
  });

  it('completes when the agent finishes, fails on an error or the agent in ERROR', () => {
    const state = (agent_state: 'FINISHED' | 'ERROR' | 'RUNNING') =>
      event({ observation: 'agent_state_changed', extras: { agent_state } });
    expect(childOutcome(state('FINISHED'))).toEqual({ type: 'CHILD_FINISHED', prUrl: null });
    expect(childOutcome(state('ERROR'))).toEqual({ type: 'CHILD_FAILED' });
    expect(childOutcome(event({ observation: 'error', content: 'boom' }))).toEqual({ type: 'CHILD_FAILED' });
    expect(
      childOutcome(event({ source: 'environment', status_update: true, type: 'error', message: 'No clone' })),
    ).toEqual({ type: 'CHILD_FAILED' });
  });

  it('says nothing of other events', () => {
    expect(childOutcome(event({ observation: 'agent_state_changed', extras: { agent_state: 'RUNNING' } }))).toBeNull();
    expect(childOutcome(event({ action: 'message', args: { content: 'https://github.com/o/r/pull/1' } }))).toBeNull();
    expect(childOutcome(event({ source: 'user', action: 'finish' }))).toBeNull();
    expect(childOutcome(event({ source: 'environment', status_update: true, type: 'info' }))).toBeNull();
  });
});
