import type { AgentState } from './controller-types.ts';
import type { NewEvent } from './types.ts';

/** The `agent_state_changed` observation the chat follows the agent's state by; `reason` says why (an error's text). */
export function agentStateEvent(state: AgentState, reason = ''): NewEvent {
  return {
    source: 'agent',
    observation: 'agent_state_changed',
    content: reason,
    message: reason,
    extras: { agent_state: state, reason },
  };
}
