import { queryOptions } from '@tanstack/react-query';
import { POLL_WHILE_STARTING_MS } from '../../../machines/conversation.ts';
import { queryKeys } from '../../api/queries.ts';
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
