/**
 * The boundary between the agent and the conversation that hosts it. The conversations
 * module persists and publishes events, resolves settings and owns the runtime session;
 * the agent turns user actions into model calls, tool calls and events.
 */
import type { components } from '../../openapi/schema.d.ts';
import type { RuntimeSession } from '../runtime/types.ts';
import type { ClientAction, Event, GitProvider } from '../../openapi/types.ts';

/** An event before the store gives it its id and timestamp. */
export type NewEvent = Omit<Event, 'id' | 'timestamp'>;
export type AgentState = components['schemas']['AgentState'];
export type McpConfig = components['schemas']['McpConfig'];

export interface LlmSettings {
  provider: 'openai' | 'anthropic' | 'openai-compatible';
  model: string;
  apiKey?: string;
  baseUrl?: string;
}

export interface AgentSettings {
  /** Null when no model is configured: starting the agent reports that clearly. */
  llm: LlmSettings | null;
  agent: string;
  confirmationMode: boolean;
  securityAnalyzer: string | null;
  maxIterations: number;
  /** Dollars; null for no limit. Checked before every model call. */
  maxBudgetPerTask: number | null;
  enableDefaultCondenser: boolean;
  mcpConfig: McpConfig;
  conversationInstructions: string | null;
  /** Names and descriptions of the user's secrets (the values are in the runtime's environment). */
  customSecretsDescriptions: Record<string, string>;
  repository: {
    name: string;
    directory: string;
    /** Its host's API, for pull requests, when the user has a token for it (in `tokenVariable`). */
    gitHost: GitHostFacts | null;
  } | null;
}

export interface GitHostFacts {
  provider: GitProvider;
  apiUrl: string;
  tokenVariable: string;
}

export interface AgentHost {
  readonly conversationId: string;
  /** Persists the event (assigning id and timestamp), then publishes it to every socket. */
  emit(event: NewEvent): Promise<Event>;
  /** The conversation's events so far, oldest first. */
  history(): Promise<Event[]>;
  readonly runtime: RuntimeSession;
  readonly settings: AgentSettings;
  /** `fetch` for requests made on the user's behalf (remote MCP servers): in saas mode it reaches only public addresses. */
  readonly outboundFetch: typeof fetch;
  /** URLs at which the runtime's two app ports are reachable (told to the agent). */
  readonly runtimeHosts: string[];
  /**
   * saas: charges one model call to the user's credits (micro-dollars, once per key) and
   * returns the remaining balance in micro-dollars. Absent in oss mode.
   */
  charge?(costMicros: bigint, idempotencyKey: string): Promise<bigint>;
  /** saas: the balance in micro-dollars, checked before each model call (below $0.10 stops the agent). */
  balance?(): Promise<bigint>;
  /** Gives the conversation a title (generated from the first message). */
  setTitle(title: string): Promise<void>;
  /**
   * Reads the model settings saved since the start again (model, key, base URL, budget,
   * confirmation): called before each model call, so a save applies from the next step and an
   * old key is never sent again. Absent: the settings of the start hold.
   */
  refreshSettings?(): Promise<void>;
}

export interface AgentSession {
  readonly state: AgentState;
  /** A `message` or `change_agent_state` action from the user (the host handles the others). */
  handle(action: ClientAction): void;
  /** Stops the loop and any model call in flight; resolves when it has stopped. */
  stop(): Promise<void>;
}

export type AgentFactory = (host: AgentHost) => AgentSession;
