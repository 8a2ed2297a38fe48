import type { AgentHost, AgentSettings } from '../../agent/types.ts';
import type { RuntimeSession } from '../../runtime/types.ts';
import type { NewEvent } from './events.ts';
import type { Event } from '../../../openapi/types.ts';

export interface HostDeps {
  emit(event: NewEvent): Promise<Event>;
  history(): Promise<Event[]>;
  setTitle(title: string): Promise<void>;
  /** saas: the user's credits (micro-dollars); absent in oss mode. */
  credits?: { balance(): Promise<bigint>; charge(costMicros: bigint, idempotencyKey: string): Promise<bigint> };
}

/** The conversation as its agent sees it (server/agent/types.ts). */
export function createAgentHost(
  conversationId: string,
  session: RuntimeSession,
  settings: AgentSettings,
  deps: HostDeps,
): AgentHost {
  return {
    conversationId,
    runtime: session,
    settings,
    // The agent is told where its served apps are; the browser reaches them through web-hosts.
    runtimeHosts: session.ports.map((port) => `http://localhost:${port}`),
    emit: deps.emit,
    history: deps.history,
    setTitle: deps.setTitle,
    ...(deps.credits && { balance: deps.credits.balance, charge: deps.credits.charge }),
  };
}
