import type { AgentHost, AgentSettings, AgentState, NewEvent } from '../../server/agent/types.ts';
import type { RuntimeSession } from '../../server/runtime/types.ts';
import type { Event } from '../../openapi/types.ts';

export const NO_MCP: AgentSettings['mcpConfig'] = { sse_servers: [], stdio_servers: [] };

export function testSettings(
  overrides: Partial<AgentSettings> & { baseUrl?: string; model?: string | undefined } = {},
): AgentSettings {
  const { baseUrl, model, ...rest } = overrides;
  return {
    llm: {
      provider: 'openai-compatible',
      model: model ?? 'fake-model',
      apiKey: 'test-key',
      baseUrl: baseUrl ?? 'http://127.0.0.1:9/v1',
    },
    agent: 'CodeActAgent',
    confirmationMode: false,
    securityAnalyzer: null,
    maxIterations: 20,
    maxBudgetPerTask: null,
    enableDefaultCondenser: true,
    mcpConfig: NO_MCP,
    conversationInstructions: null,
    customSecretsDescriptions: {},
    repository: null,
    ...rest,
  };
}

export interface MemoryHostOptions {
  runtime: RuntimeSession;
  settings: AgentSettings;
  runtimeHosts?: string[];
  /** saas mode: the user's credits in micro-dollars (charges are taken from it). Absent for oss mode. */
  balanceMicros?: bigint;
  history?: Event[];
}

/**
 * An AgentHost that keeps the conversation in memory, the way the conversations module keeps
 * it in the database: events get increasing ids and timestamps; charges are idempotent per
 * key. Tests wait on it for events.
 */
export class MemoryHost {
  readonly conversationId = 'conversation-test';
  readonly events: Event[];
  readonly titles: string[] = [];
  readonly charges = new Map<string, bigint>();
  balanceMicros: bigint | null;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly options: MemoryHostOptions) {
    this.events = [...(options.history ?? [])];
    this.balanceMicros = options.balanceMicros ?? null;
  }

  /** The AgentHost interface over this store; `charge` and `balance` only in saas mode. */
  get host(): AgentHost {
    const base: AgentHost = {
      conversationId: this.conversationId,
      runtime: this.options.runtime,
      settings: this.options.settings,
      runtimeHosts: this.options.runtimeHosts ?? ['http://localhost:51001', 'http://localhost:51002'],
      // The test MCP servers listen on this machine's loopback: the self-hosted fetch, unguarded.
      outboundFetch: fetch,
      emit: async (event) => this.store(event),
      history: async () => [...this.events],
      setTitle: async (title) => {
        this.titles.push(title);
      },
    };
    if (this.balanceMicros === null) return base;
    return {
      ...base,
      charge: async (cost, key) => {
        if (!this.charges.has(key)) {
          this.charges.set(key, cost);
          this.balanceMicros = (this.balanceMicros ?? 0n) - cost;
        }
        return this.balanceMicros ?? 0n;
      },
      balance: async () => this.balanceMicros ?? 0n,
    };
  }

  private store(event: NewEvent): Event {
    const stored: Event = { ...event, id: this.events.length, timestamp: new Date().toISOString() };
    this.events.push(stored);
    for (const wake of this.waiters) wake();
    return stored;
  }

  /** The first event (from `after` on) matching `predicate`, waiting for it up to `timeoutMs`. */
  waitFor(predicate: (event: Event) => boolean, options: { timeoutMs?: number; after?: number } = {}): Promise<Event> {
    // Events are only appended: each look goes on from where the last one stopped.
    let scanned = 0;
    const find = () => {
      for (; scanned < this.events.length; scanned++) {
        const event = this.events[scanned] as Event;
        if (event.id > (options.after ?? -1) && predicate(event)) return event;
      }
      return undefined;
    };
    return new Promise((resolve, reject) => {
      const found = find();
      if (found) return resolve(found);
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`No matching event within ${options.timeoutMs ?? 10_000} ms. Events:\n${this.describe()}`));
      }, options.timeoutMs ?? 10_000);
      const check = () => {
        const event = find();
        if (!event) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(event);
      };
      this.waiters.add(check);
    });
  }

  /** Waits for the agent to announce `state` (after event id `after`). */
  waitForState(state: AgentState, options: { timeoutMs?: number; after?: number } = {}): Promise<Event> {
    return this.waitFor(
      (event) => event.observation === 'agent_state_changed' && event.extras?.agent_state === state,
      options,
    );
  }

  /** The announced agent states, in order. */
  get states(): AgentState[] {
    return this.events.flatMap((event) =>
      event.observation === 'agent_state_changed' && event.extras?.agent_state ? [event.extras.agent_state] : [],
    );
  }

  /** One line per event, for failure messages. */
  describe(): string {
    return this.events
      .map((event) => {
        const kind = event.action
          ? `action ${event.action}`
          : event.observation
            ? `observation ${event.observation}`
            : event.status_update
              ? `status ${event.type}`
              : 'event';
        const detail = event.extras?.agent_state ?? event.message ?? event.content ?? '';
        return `${event.id} ${event.source} ${kind}${event.cause != null ? ` (cause ${event.cause})` : ''}: ${String(detail).slice(0, 100)}`;
      })
      .join('\n');
  }
}
