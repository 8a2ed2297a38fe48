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

export type StatusText =
  | {
      namespace: 'chat';
      key:
        'status.disconnected' | 'status.connecting' | 'status.starting' | 'status.stopped' | 'status.waitingForRuntime';
    }
  | { namespace: 'workspace'; key: `agentStatus.${AgentState}` };

export function statusText(facts: StatusFacts, agentState: AgentState): StatusText {
  if (facts.conversationStatus === 'STOPPED') return { namespace: 'chat', key: 'status.stopped' };
  if (facts.connection === 'DISCONNECTED') return { namespace: 'chat', key: 'status.disconnected' };
  if (facts.conversationStatus === 'STARTING') return { namespace: 'chat', key: 'status.starting' };
  if (facts.connection === 'CONNECTING') return { namespace: 'chat', key: 'status.connecting' };
  if (facts.runtimeStatus !== RUNTIME_READY) return { namespace: 'chat', key: 'status.waitingForRuntime' };
  return { namespace: 'workspace', key: `agentStatus.${agentState}` };
}
