import type { AgentState } from '../../../../machines/agent.ts';
import type { ConnectionStatus } from '../../../realtime/types.ts';

// The chat's status bar shows unless the socket is connected, the conversation is RUNNING and its
// runtime is ready; its text names the first thing that is not (or the agent's state).

export const RUNTIME_READY = 'STATUS$READY';

export interface StatusFacts {
  connection: ConnectionStatus;
  conversationStatus: 'RUNNING' | 'STARTING' | 'STOPPED';
  runtimeStatus: string | null;
}

export const statusBarShown = (facts: StatusFacts) =>
  !(
    facts.connection === 'CONNECTED' &&
    facts.conversationStatus === 'RUNNING' &&
    facts.runtimeStatus === RUNTIME_READY
  );

/** An i18n key of the `chat` namespace. */
export type StatusText =
  | 'status.disconnected'
  | 'status.connecting'
  | 'status.starting'
  | 'status.stopped'
  | 'status.waitingForRuntime'
  | `agentStatus.${AgentState}`;

export function statusText(facts: StatusFacts, agentState: AgentState): StatusText {
  if (facts.conversationStatus === 'STOPPED') return 'status.stopped';
  if (facts.connection === 'DISCONNECTED') return 'status.disconnected';
  if (facts.conversationStatus === 'STARTING') return 'status.starting';
  if (facts.connection === 'CONNECTING') return 'status.connecting';
  if (facts.runtimeStatus !== RUNTIME_READY) return 'status.waitingForRuntime';
  return `agentStatus.${agentState}`;
}
