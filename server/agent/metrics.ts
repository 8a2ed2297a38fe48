import type { components } from '../../openapi/schema.d.ts';
import { priceOf, type ModelPrice } from './prices.ts';
import type { Event } from '../../openapi/types.ts';

export type LlmMetrics = components['schemas']['LlmMetrics'];

/** Tokens of one model call. `promptTokens` counts every prompt token, cached ones included. */
export interface CallUsage {
  promptTokens: number;
  completionTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

const MICROS_PER_DOLLAR = 1_000_000;

/**
 * Cost in integer micro-dollars, rounded up. A price in dollars per million tokens is a price
 * in micro-dollars per token; multiplied by 1000 it is an integer number of nano-dollars per
 * token for every listed price, so the sum is exact before the one rounding at the end.
 */
export function costMicros(price: ModelPrice, usage: CallUsage): bigint {
  const nanosPerToken = (dollarsPerMillion: number) => BigInt(Math.round(dollarsPerMillion * 1000));
  const uncached = Math.max(0, usage.promptTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  const nanos =
    BigInt(uncached) * nanosPerToken(price.input) +
    BigInt(usage.cacheReadTokens) * nanosPerToken(price.cacheRead) +
    BigInt(usage.cacheWriteTokens) * nanosPerToken(price.cacheWrite) +
    BigInt(usage.completionTokens) * nanosPerToken(price.output);
  return (nanos + 999n) / 1000n;
}

/** The conversation's running totals, reported on every agent event and checked against the budget. */
export class MetricsTracker {
  readonly price: ModelPrice;
  private costMicros = 0n;
  private promptTokens = 0;
  private completionTokens = 0;
  private cacheReadTokens = 0;
  private cacheWriteTokens = 0;
  private lastTurnTokens = 0;

  constructor(
    model: string,
    private readonly maxBudgetPerTask: () => number | null,
  ) {
    this.price = priceOf(model).price;
  }

  /** Continues from the totals of the conversation's latest metered event (after a restart). */
  restore(history: readonly Event[]): void {
    const latest = history.findLast((event) => event.llm_metrics)?.llm_metrics;
    if (!latest) return;
    const usage = latest.accumulated_token_usage;
    this.costMicros = BigInt(Math.round(latest.accumulated_cost * MICROS_PER_DOLLAR));
    this.promptTokens = usage.prompt_tokens;
    this.completionTokens = usage.completion_tokens;
    this.cacheReadTokens = usage.cache_read_tokens;
    this.cacheWriteTokens = usage.cache_write_tokens;
    this.lastTurnTokens = usage.per_turn_token;
  }

  /** Adds one call; returns its cost in micro-dollars. */
  record(usage: CallUsage): bigint {
    const cost = costMicros(this.price, usage);
    this.costMicros += cost;
    this.promptTokens += usage.promptTokens;
    this.completionTokens += usage.completionTokens;
    this.cacheReadTokens += usage.cacheReadTokens;
    this.cacheWriteTokens += usage.cacheWriteTokens;
    this.lastTurnTokens = usage.promptTokens + usage.completionTokens;
    return cost;
  }

  get accumulatedMicros(): bigint {
    return this.costMicros;
  }

  /** The budget in micro-dollars, or null for no limit. */
  get budgetMicros(): bigint | null {
    const budget = this.maxBudgetPerTask();
    return budget === null ? null : BigInt(Math.round(budget * MICROS_PER_DOLLAR));
  }

  snapshot(): LlmMetrics {
    return {
      accumulated_cost: Number(this.costMicros) / MICROS_PER_DOLLAR,
      max_budget_per_task: this.maxBudgetPerTask(),
      accumulated_token_usage: {
        prompt_tokens: this.promptTokens,
        completion_tokens: this.completionTokens,
        cache_read_tokens: this.cacheReadTokens,
        cache_write_tokens: this.cacheWriteTokens,
        per_turn_token: this.lastTurnTokens,
        context_window: this.price.contextWindow,
      },
    };
  }
}
