import { describe, expect, it } from 'vitest';
import type { Event } from '../../../openapi/types.ts';
import { sessionCost } from '../../../machines/open-conversation.ts';

const event = (id: number, cost?: number): Event =>
  ({
    id,
    source: 'agent',
    timestamp: '2026-11-25T00:00:00Z',
    ...(cost !== undefined && { llm_metrics: { accumulated_cost: cost } }),
  }) as Event;

describe('the session cost', () => {
  it('is the newest accumulated cost, skipping events without metrics', () => {
    expect(sessionCost([])).toBe(0);
    expect(sessionCost([event(0), event(1)])).toBe(0);
    expect(sessionCost([event(0, 0.01), event(1, 0.03), event(2)])).toBe(0.03);
  });
});
