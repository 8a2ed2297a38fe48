import type { components } from '../../../openapi/schema.d.ts';
import type { Conversation } from '../../../openapi/types.ts';
import { queryClient } from '../../app/services.ts';
import { conversationQuery, newestEventsQuery } from './queries.ts';

type EventPage = components['schemas']['EventPage'];

export interface Prefetched {
  record?: Promise<Conversation>;
  newestPage?: Promise<EventPage>;
}

/**
 * The conversation's record and newest history page for the workspace that opens, read through the
 * query cache: what the route's loader asked for while it is fresh, else asked for now.
 */
export function takePrefetched(conversationId: string): Prefetched {
  const record = queryClient.fetchQuery(conversationQuery(conversationId));
  const newestPage = queryClient.fetchQuery(newestEventsQuery(conversationId));
  // A failure is the workspace's to handle (it asks again); unobserved, it is no error yet.
  record.catch(() => undefined);
  newestPage.catch(() => undefined);
  return { record, newestPage };
}

/** Answers the first call with `early` (asking anew if it failed), every later one by asking anew. */
export function answerOnce<T>(early: Promise<T> | undefined): (ask: () => Promise<T>) => Promise<T> {
  let first = early;
  return (ask) => {
    const answer = first;
    first = undefined;
    return answer?.catch(ask) ?? ask();
  };
}
