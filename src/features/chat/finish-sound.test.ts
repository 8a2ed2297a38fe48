import { describe, expect, it } from 'vitest';
import { agentFinished } from '../../../machines/open-conversation.ts';
import { isRecent } from './finish-sound.ts';

describe('the finish sound', () => {
  it('sounds when a running agent finishes or waits for the user, and not otherwise', () => {
    expect(agentFinished('RUNNING', 'FINISHED')).toBe(true);
    expect(agentFinished('RUNNING', 'AWAITING_USER_INPUT')).toBe(true);
    expect(agentFinished('RUNNING', 'ERROR')).toBe(false);
    expect(agentFinished('RUNNING', 'PAUSED')).toBe(false);
    expect(agentFinished('LOADING', 'AWAITING_USER_INPUT')).toBe(false);
    expect(agentFinished(null, 'FINISHED')).toBe(false);
    expect(agentFinished('FINISHED', 'FINISHED')).toBe(false);
  });

  it('sounds for what happens now, not for history replayed on opening the conversation', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(isRecent('2026-11-25T09:59:55Z', now)).toBe(true);
    expect(isRecent('2026-11-25T09:58:00Z', now)).toBe(false);
    expect(isRecent(undefined, now)).toBe(false);
  });
});
