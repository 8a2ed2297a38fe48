import { describe, expect, it } from 'vitest';
import { agentErrorKey } from './agent-errors.ts';
import { isAmongRatableEvents } from './feedback-window.ts';
import { statusBarShown, statusText } from './status-bar.ts';
import { hasGitTarget, suggestionPrompt } from '../../../rules/git-suggestions.ts';
import type { Event } from '../../../../openapi/types.ts';

describe('agent error messages', () => {
  it('looks the message up by error id, null for an unknown one', () => {
    expect(agentErrorKey('AGENT_ERROR$MAX_ITERATIONS')).toBe('agentErrors.maxIterations');
    expect(agentErrorKey('SOMETHING_ELSE')).toBeNull();
    expect(agentErrorKey('toString')).toBeNull();
    expect(agentErrorKey(undefined)).toBeNull();
  });
});

describe('status bar', () => {
  const ready = { connection: 'CONNECTED', conversationStatus: 'RUNNING', runtimeStatus: 'STATUS$READY' } as const;
  it('is hidden only when connected, running and ready', () => {
    expect(statusBarShown(ready)).toBe(false);
    expect(statusBarShown({ ...ready, connection: 'CONNECTING' })).toBe(true);
    expect(statusBarShown({ ...ready, conversationStatus: 'STARTING' })).toBe(true);
    expect(statusBarShown({ ...ready, runtimeStatus: 'STATUS$RUNTIME_STARTED' })).toBe(true);
  });
  it('names the first thing that is not ready, else the agent state', () => {
    expect(statusText({ ...ready, connection: 'DISCONNECTED' }, 'RUNNING')).toBe('status.disconnected');
    expect(statusText({ ...ready, conversationStatus: 'STOPPED' }, 'RUNNING')).toBe('status.stopped');
    expect(statusText({ ...ready, runtimeStatus: null }, 'RUNNING')).toBe('status.waitingForRuntime');
    expect(statusText(ready, 'AWAITING_USER_INPUT')).toBe('agentStatus.AWAITING_USER_INPUT');
  });
});

describe('pull-request suggestions', () => {
  const conversation = {
    selected_repository: 'acme/app',
    selected_branch: 'feature/x',
    git_provider: 'github',
  } as const;
  it('names a pushable branch, and asks for a new one instead of main, master or deploy', () => {
    expect(suggestionPrompt('push', conversation)).toEqual({
      key: 'suggestions.pushPromptBranch',
      params: { branch: 'feature/x', repository: 'acme/app' },
    });
    expect(suggestionPrompt('pullRequest', { ...conversation, selected_branch: 'main' }).key).toBe(
      'suggestions.prPromptNewBranch',
    );
    expect(suggestionPrompt('push', { ...conversation, selected_branch: 'deploy' }).key).toBe(
      'suggestions.pushPromptNewBranch',
    );
  });
  it('needs a git provider and a repository', () => {
    expect(hasGitTarget(conversation)).toBe(true);
    expect(hasGitTarget({ ...conversation, git_provider: null })).toBe(false);
    expect(hasGitTarget({ ...conversation, selected_repository: null })).toBe(false);
  });
});

describe('feedback window', () => {
  const events = Array.from({ length: 15 }, (_, index): Event => ({
    id: index + 1,
    source: 'agent',
    timestamp: '2026-01-01T00:00:00Z',
  }));
  it('offers ratings only on the last 10 events', () => {
    expect(isAmongRatableEvents(events, 15)).toBe(true);
    expect(isAmongRatableEvents(events, 6)).toBe(true);
    expect(isAmongRatableEvents(events, 5)).toBe(false);
  });
});
