import { RATABLE_LAST_EVENTS } from '../../../../machines/feedback.ts';
import type { Event } from '../../../../openapi/types.ts';

/** Whether the event with `eventId` is among the last 10 events (only those may be rated); looks at the last 10 only. */
export function isAmongRatableEvents(events: readonly Event[], eventId: number): boolean {
  for (let index = events.length - 1; index >= Math.max(0, events.length - RATABLE_LAST_EVENTS); index -= 1) {
    if ((events[index] as Event).id === eventId) return true;
  }
  return false;
}
