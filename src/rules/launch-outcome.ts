import { findPullRequestLink } from './pull-request-link.ts';
import type { Event } from '../../openapi/types.ts';

export type ChildOutcome = { type: 'CHILD_FINISHED'; prUrl: string | null } | { type: 'CHILD_FAILED' };

/**
 * What an event of a microagent-launch conversation says about its task (spec §4): a finish action
 * naming a pull-request link, or the agent finished, completes it; an error event or the agent in
 * ERROR fails it; anything else says nothing yet.
 */
export function childOutcome(event: Event): ChildOutcome | null {
  if (event.source === 'agent' && event.action === 'finish') {
    const text = [event.args?.final_thought, event.message].filter(Boolean).join('\n');
    return { type: 'CHILD_FINISHED', prUrl: findPullRequestLink(text)?.url ?? null };
  }
  const agentState = event.observation === 'agent_state_changed' ? event.extras?.agent_state : undefined;
  if (agentState === 'FINISHED') return { type: 'CHILD_FINISHED', prUrl: null };
  if (agentState === 'ERROR' || event.observation === 'error' || (event.status_update && event.type === 'error'))
    return { type: 'CHILD_FAILED' };
  return null;
}
