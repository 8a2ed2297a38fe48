import type { Event } from './types.ts';

/**
 * The events of both lists once each, ascending id: history pages and socket frames overlap at
 * their edges (a replay after a reconnect, a page loaded while events stream in), and the id
 * alone says which is which. Returns `known` itself when `incoming` adds nothing.
 */
export function mergeEvents(known: readonly Event[], incoming: readonly Event[]): readonly Event[] {
  const ids = new Set(known.map((event) => event.id));
  const fresh = incoming.filter((event) => {
    if (ids.has(event.id)) return false;
    ids.add(event.id);
    return true;
  });
  if (fresh.length === 0) return known;
  const newest = known.at(-1)?.id ?? -1;
  // The common case, one newer event from the socket, needs no sort.
  if (fresh.every((event, index) => event.id > (index === 0 ? newest : (fresh[index - 1]?.id ?? newest)))) return [...known, ...fresh];
  return [...known, ...fresh].sort((a, b) => a.id - b.id);
}

/** The id the socket resumes after: the newest known event's, -1 when none. */
export const newestEventId = (events: readonly Event[]) => events.at(-1)?.id ?? -1;

/** The id older history is paged from: the oldest known event's, undefined when none (the newest page). */
export const oldestEventId = (events: readonly Event[]) => events[0]?.id;
