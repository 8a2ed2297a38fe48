import type { AgentHost, AgentSettings } from '../../agent/types.ts';
import type { RuntimeSession } from '../../runtime/types.ts';
import type { NewEvent } from './events.ts';
import type { Event } from '../../../openapi/types.ts';

export interface HostDeps {
  emit(event: NewEvent): Promise<Event>;
  history(): Promise<Event[]>;
  setTitle(title: string): Promise<void>;
  /** The user's model settings as saved now. */
  modelSettings(): Promise<ModelSettings>;
  outboundFetch: typeof fetch;
  /** saas: the user's credits (micro-dollars); absent in oss mode. */
  credits?: { balance(): Promise<bigint>; charge(costMicros: bigint, idempotencyKey: string): Promise<bigint> };
}

/** The model-related settings that a save changes in a running conversation, from the agent's next step on. */
export type ModelSettings = Pick<AgentSettings, 'llm' | 'maxBudgetPerTask' | 'confirmationMode' | 'securityAnalyzer'>;

/** The conversation as its agent sees it (server/agent/types.ts). */
export function createAgentHost(
  conversationId: string,
  session: RuntimeSession,
  settings: AgentSettings,
  deps: HostDeps,
): AgentHost {
  let current = settings;
  return {
    conversationId,
    runtime: session,
    get settings() {
      return current;
    },
    async refreshSettings() {
      current = { ...current, ...(await deps.modelSettings()) };
    },
    // The agent is told where its served apps are; the browser reaches them through web-hosts.
    runtimeHosts: session.ports.map((port) => `http://localhost:${port}`),
    outboundFetch: deps.outboundFetch,
    emit: deps.emit,
    history: deps.history,
    setTitle: deps.setTitle,
    ...(deps.credits && { balance: deps.credits.balance, charge: deps.credits.charge }),
  };
}
