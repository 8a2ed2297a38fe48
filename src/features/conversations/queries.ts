import { queryOptions } from '@tanstack/react-query';
import { POLL_WHILE_STARTING_MS } from '../../../machines/conversation.ts';
import { queryKeys } from '../../api/queries.ts';
import { HISTORY_PAGE_SIZE } from '../../realtime/types.ts';
import { conversationRequests } from './requests.ts';

export const conversationListQuery = queryOptions({
  queryKey: queryKeys.conversationList,
  queryFn: ({ signal }) => conversationRequests.list(signal),
  // Its error shows in the panel, not as a toast.
  meta: { disableToast: true },
  refetchInterval: (query) =>
    query.state.data?.some((conversation) => conversation.status === 'STARTING') ? POLL_WHILE_STARTING_MS : false,
});

export const trajectoryQuery = (conversationId: string) =>
  queryOptions({
    queryKey: queryKeys.conversation(conversationId, 'trajectory'),
    queryFn: () => conversationRequests.trajectory(conversationId),
    meta: { disableToast: true },
  });

export const microagentsQuery = (conversationId: string) =>
  queryOptions({
    queryKey: queryKeys.conversation(conversationId, 'microagents'),
    queryFn: () => conversationRequests.microagents(conversationId),
    meta: { disableToast: true },
  });

export const forksQuery = (conversationId: string) =>
  queryOptions({
    queryKey: queryKeys.conversation(conversationId, 'forks'),
    queryFn: ({ signal }) => conversationRequests.forks(conversationId, signal),
    meta: { disableToast: true },
  });

/**
 * How long the record and newest events a route's loader asked for (on entering, or on a link's
 * hover) remain the answer of the workspace that opens: its status moves, so not much longer.
 */
const OPENING_FRESH_MS = 10_000;

// The workspace reports their failures itself (it asks again), so they raise no toast.
const openingOptions = { staleTime: OPENING_FRESH_MS, gcTime: OPENING_FRESH_MS, meta: { disableToast: true } };

export const conversationQuery = (conversationId: string) =>
  queryOptions({
    queryKey: queryKeys.conversation(conversationId, 'record'),
    queryFn: ({ signal }) => conversationRequests.get(conversationId, signal),
    ...openingOptions,
  });

/** The newest page of the conversation's history; the event stream keeps the rest itself. */
export const newestEventsQuery = (conversationId: string) =>
  queryOptions({
    queryKey: queryKeys.conversation(conversationId, 'events', 'newest'),
    queryFn: () => conversationRequests.events(conversationId, { limit: HISTORY_PAGE_SIZE }),
    ...openingOptions,
  });
