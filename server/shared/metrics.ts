import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// The server's figures for Prometheus (GET /metrics): one registry for the process, whatever
// serves in it; aggregate counts only, nothing about any user.

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'atelier_process_' });

export const httpDuration = new Histogram({
  name: 'atelier_http_request_duration_seconds',
  help: 'HTTP answers by operation (openapi operationId, or "static" / "unknown"), method and status',
  labelNames: ['operation', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const openSockets = new Gauge({
  name: 'atelier_sockets_open',
  help: 'Event sockets open now (conversations and onboarding chats)',
  registers: [metricsRegistry],
});

/** What counts running conversations: each conversation manager in the process registers its own. */
const runningSources = new Set<() => number>();
export function countRunningConversations(source: () => number): () => void {
  runningSources.add(source);
  return () => runningSources.delete(source);
}
new Gauge({
  name: 'atelier_conversations_running',
  help: 'Conversations whose runtime runs on this server',
  registers: [metricsRegistry],
  collect() {
    this.set([...runningSources].reduce((sum, count) => sum + count(), 0));
  },
});

export const agentSteps = new Counter({
  name: 'atelier_agent_steps_total',
  help: 'Model calls the agents made (one per step)',
  registers: [metricsRegistry],
});

export const llmTokens = new Counter({
  name: 'atelier_llm_tokens_total',
  help: 'Language model tokens by kind',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
});

export const llmCostMicros = new Counter({
  name: 'atelier_llm_cost_microdollars_total',
  help: 'What the model calls cost, in micro-dollars',
  registers: [metricsRegistry],
});

export const ledgerWrites = new Counter({
  name: 'atelier_ledger_writes_total',
  help: 'Credit ledger writes by operation',
  labelNames: ['operation'] as const,
  registers: [metricsRegistry],
});

export const eventAppends = new Counter({
  name: 'atelier_events_appended_total',
  help: 'Events appended to conversations’ logs',
  registers: [metricsRegistry],
});

export const cspViolations = new Counter({
  name: 'atelier_csp_violations_total',
  help: 'What browsers reported the Content-Security-Policy blocked, by directive',
  labelNames: ['directive'] as const,
  registers: [metricsRegistry],
});
