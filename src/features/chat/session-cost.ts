import type { Event } from '../../../openapi/types.ts';

/** The conversation's cost so far: the newest event's accumulated model cost (0 before any). */
export function sessionCost(events: readonly Event[]): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const cost = events[i]?.llm_metrics?.accumulated_cost;
    if (typeof cost === 'number') return cost;
  }
  return 0;
}
