import type { components } from '../../../openapi/schema.d.ts';
import type { Conversation, Event } from '../../../openapi/types.ts';

type ToolSpec = components['schemas']['ToolSpec'];
type LlmMetrics = components['schemas']['LlmMetrics'];

/** The `system` action the agent starts with: its message, agent, version and tools; null before the agent started. */
export function systemMessageOf(events: readonly Event[]) {
  const system = events.find((event) => event.action === 'system');
  if (!system) return null;
  return {
    content: system.args?.content ?? system.message ?? '',
    agentClass: system.args?.agent_class ?? null,
    version: system.args?.platform_version ?? null,
    tools: system.args?.tools ?? [],
  };
}

/** The latest metrics of the conversation (they accumulate, so the newest event with them is the total); null before any model call. */
export function latestMetricsOf(events: readonly Event[]): LlmMetrics | null {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const metrics = events[index]?.llm_metrics;
    if (metrics) return metrics;
  }
  return null;
}

/** Above this share of the budget per task, the metrics' budget bar turns red (spec §9). */
export const BUDGET_WARNING_PERCENT = 80;

/** How much of the budget per task is spent, in percent (capped at 100), and whether it is past the warning; null without a budget. */
export function budgetUse(metrics: LlmMetrics): { percent: number; warning: boolean } | null {
  if (metrics.max_budget_per_task === null || metrics.max_budget_per_task <= 0) return null;
  const percent = (metrics.accumulated_cost / metrics.max_budget_per_task) * 100;
  return { percent: Math.min(100, percent), warning: percent > BUDGET_WARNING_PERCENT };
}

/** How full the model's context window was on the last call, in percent, capped at 100 (spec §9); null when unknown. */
export function contextUse(metrics: LlmMetrics): number | null {
  const { per_turn_token: used, context_window: size } = metrics.accumulated_token_usage;
  return size > 0 ? Math.min(100, (used / size) * 100) : null;
}

/** The named parameters of a tool (its JSON Schema's properties), with their descriptions and whether they are required. */
export function toolParameters(tool: ToolSpec): { name: string; description: string; required: boolean }[] {
  const properties = (tool.parameters['properties'] ?? {}) as Record<string, { description?: unknown }>;
  const required = Array.isArray(tool.parameters['required']) ? (tool.parameters['required'] as unknown[]) : [];
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    description: typeof schema.description === 'string' ? schema.description : '',
    required: required.includes(name),
  }));
}

/** The list after an optimistic change to one conversation. */
export function changeConversation(
  list: readonly Conversation[],
  conversationId: string,
  change: Partial<Conversation>,
): Conversation[] {
  return list.map((conversation) =>
    conversation.conversation_id === conversationId ? { ...conversation, ...change } : conversation,
  );
}

export function withoutConversation(list: readonly Conversation[], conversationId: string): Conversation[] {
  return list.filter((conversation) => conversation.conversation_id !== conversationId);
}

/** The file name of a downloaded workspace. */
export const workspaceZipName = (conversationId: string) => `workspace-${conversationId}.zip`;
