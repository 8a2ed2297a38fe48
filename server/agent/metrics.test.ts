import { describe, expect, it } from 'vitest';
import { costMicros, MetricsTracker } from './metrics.ts';
import { priceOf, UNKNOWN_MODEL_PRICE } from './prices.ts';

describe('priceOf', () => {
  it('finds listed models, with or without a provider prefix', () => {
    expect(priceOf('gpt-4o')).toMatchObject({ known: true, price: { input: 2.5, output: 10 } });
    expect(priceOf('openai/GPT-4o-mini').price.input).toBe(0.15);
    expect(priceOf('anthropic/claude-sonnet-4-20250514')).toMatchObject({
      known: true,
      price: { input: 3, cacheWrite: 3.75 },
    });
  });

  it('prices a dated release like its family, preferring the longest family name', () => {
    expect(priceOf('gpt-4o-mini-2024-07-18').price.input).toBe(0.15);
    expect(priceOf('claude-sonnet-4-5-20250929').price).toBe(priceOf('claude-sonnet-4-5').price);
    expect(priceOf('gpt-4.1-nano-2025-04-14').price.output).toBe(0.4);
  });

  it('prices unknown models at the documented fallback rate', () => {
    expect(priceOf('llama3.1:8b')).toEqual({ known: false, price: UNKNOWN_MODEL_PRICE });
    // A name that merely begins like a listed one is not that model.
    expect(priceOf('gpt-4ox').known).toBe(false);
  });
});

describe('costMicros', () => {
  it('charges uncached prompt, cache reads, cache writes and completion at their rates', () => {
    const price = priceOf('claude-sonnet-4').price;
    // 1000 uncached × $3/M = 3000 µ$; 2000 read × $0.30/M = 600 µ$; 1000 written × $3.75/M = 3750 µ$; 500 out × $15/M = 7500 µ$.
    expect(
      costMicros(price, { promptTokens: 4000, cacheReadTokens: 2000, cacheWriteTokens: 1000, completionTokens: 500 }),
    ).toBe(14_850n);
  });

  it('rounds a fraction of a micro-dollar up', () => {
    expect(
      costMicros(priceOf('gpt-4o-mini').price, {
        promptTokens: 1,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        completionTokens: 0,
      }),
    ).toBe(1n);
    expect(
      costMicros(priceOf('gpt-4o-mini').price, {
        promptTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        completionTokens: 0,
      }),
    ).toBe(0n);
  });
});

describe('MetricsTracker', () => {
  it('accumulates calls into the event metrics shape', () => {
    const tracker = new MetricsTracker('gpt-4o', () => 5);
    tracker.record({ promptTokens: 1000, cacheReadTokens: 200, cacheWriteTokens: 0, completionTokens: 100 });
    tracker.record({ promptTokens: 1500, cacheReadTokens: 1000, cacheWriteTokens: 0, completionTokens: 50 });
    expect(tracker.snapshot()).toEqual({
      accumulated_cost: 0.00625,
      max_budget_per_task: 5,
      accumulated_token_usage: {
        prompt_tokens: 2500,
        completion_tokens: 150,
        cache_read_tokens: 1200,
        cache_write_tokens: 0,
        per_turn_token: 1550,
        context_window: 128_000,
      },
    });
    expect(tracker.budgetMicros).toBe(5_000_000n);
  });

  it('continues from the latest metered event of the history', () => {
    const tracker = new MetricsTracker('gpt-4o', () => null);
    const metrics = new MetricsTracker('gpt-4o', () => null);
    metrics.record({ promptTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0, completionTokens: 10 });
    tracker.restore([
      { id: 1, source: 'agent', timestamp: '2026-01-01T00:00:00Z', llm_metrics: metrics.snapshot() },
      { id: 2, source: 'user', timestamp: '2026-01-01T00:00:01Z' },
    ]);
    expect(tracker.accumulatedMicros).toBe(metrics.accumulatedMicros);
    expect(tracker.snapshot()).toEqual(metrics.snapshot());
  });
});
