import type { Event } from '../../openapi/types.ts';

const strictlyAscending = (events: readonly Event[]) =>
  events.every((event, index) => index === 0 || event.id > (events[index - 1] as Event).id);

/**
 * The events of both lists once each, ascending id: history pages and socket frames overlap at
 * their edges (a replay after a reconnect, a page loaded while events stream in), and the id
 * alone says which is which. Returns `known` itself when `incoming` adds nothing.
 */
export function mergeEvents(known: readonly Event[], incoming: readonly Event[]): readonly Event[] {
  const first = incoming[0];
  const last = incoming.at(-1);
  if (first === undefined || last === undefined) return known;
  // The common cases, newer events from the socket and an older page (newest first) from REST,
  // touch nothing already known: no look-up and no sort, whatever the history's length.
  const ascending = first.id <= last.id ? incoming : [...incoming].reverse();
  if (strictlyAscending(ascending)) {
    if ((ascending[0] as Event).id > (known.at(-1)?.id ?? -1)) return [...known, ...ascending];
    if ((ascending.at(-1) as Event).id < (known[0]?.id ?? -1)) return [...ascending, ...known];
  }
  const ids = new Set(known.map((event) => event.id));
  const fresh = incoming.filter((event) => {
    if (ids.has(event.id)) return false;
    ids.add(event.id);
    return true;
  });
  if (fresh.length === 0) return known;
  return [...known, ...fresh].sort((a, b) => a.id - b.id);
}

/**
 * Whether `next` is `previous` with events added at its end only. mergeEvents keeps the known
 * events, sorted by id, each once: holding the same first and last known event, `next` starts with
 * all of them. Who derives something from the events can then look at the added ones only.
 */
export function grewAtEnd(previous: readonly Event[], next: readonly Event[]): boolean {
  const seen = previous.length;
  return seen > 0 && next.length >= seen && next[0] === previous[0] && next[seen - 1] === previous[seen - 1];
}

/** The id the socket resumes after: the newest known event's, -1 when none. */
export const newestEventId = (events: readonly Event[]) => events.at(-1)?.id ?? -1;

/** The id older history is paged from: the oldest known event's, undefined when none (the newest page). */
export const oldestEventId = (events: readonly Event[]) => events[0]?.id;
