import type { components } from '../../../openapi/schema.d.ts';
import { HISTORY_PAGE_SIZE } from '../../realtime/types.ts';
import { conversationRequests } from './requests.ts';
import type { Conversation } from '../../../openapi/types.ts';

type EventPage = components['schemas']['EventPage'];

export interface Prefetched {
  record?: Promise<Conversation>;
  newestPage?: Promise<EventPage>;
}

// The conversation's record and newest history page, asked for as soon as the router matches the
// workspace (beside the session's requests and the route's code) instead of once the signed-in
// shell and the workspace have rendered. Only the latest is kept, for the workspace that opens next.
// It lives here, with the requests the sidebar loads anyway, so that asking costs no extra code.
let latest: (Prefetched & { conversationId: string }) | null = null;

export function prefetchConversation(conversationId: string) {
  const record = conversationRequests.get(conversationId);
  const newestPage = conversationRequests.events(conversationId, { limit: HISTORY_PAGE_SIZE });
  // A failure is the workspace's to handle (it asks again); unobserved, it is no error yet.
  record.catch(() => undefined);
  newestPage.catch(() => undefined);
  latest = { conversationId, record, newestPage };
}

/** The answers prefetched for this conversation, once: a later call gets none (its data would be old). */
export function takePrefetched(conversationId: string): Prefetched {
  const taken = latest?.conversationId === conversationId ? latest : null;
  latest = null;
  return { record: taken?.record, newestPage: taken?.newestPage };
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
