import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queries.ts';
import { toast } from '../../ui/index.ts';
import { renamedTitle } from '../../../machines/conversation.ts';
import { conversationRequests } from './requests.ts';
import { changeConversation, withoutConversation } from './rules.ts';
import type { Conversation } from '../../../openapi/types.ts';

/** The list is read again every 3 s while a conversation starts (as the open one is, spec §4). */
const POLL_WHILE_STARTING_MS = 3_000;

export const conversationListQuery = queryOptions({
  queryKey: queryKeys.conversationList,
  queryFn: ({ signal }) => conversationRequests.list(signal),
  // Its error shows in the panel, not as a toast.
  meta: { disableToast: true },
  refetchInterval: (query) => (query.state.data?.some((conversation) => conversation.status === 'STARTING') ? POLL_WHILE_STARTING_MS : false),
});

export const trajectoryQuery = (conversationId: string) =>
  queryOptions({ queryKey: queryKeys.conversation(conversationId, 'trajectory'), queryFn: () => conversationRequests.trajectory(conversationId), meta: { disableToast: true } });

export const microagentsQuery = (conversationId: string) =>
  queryOptions({ queryKey: queryKeys.conversation(conversationId, 'microagents'), queryFn: () => conversationRequests.microagents(conversationId), meta: { disableToast: true } });

type ListChange = (list: Conversation[]) => Conversation[];

/**
 * A change to one conversation of the list, applied at once and put back when the server
 * refuses it (its error is toasted by the query client). `leaves` the open conversation: the
 * workspace of a stopped or deleted conversation goes back to /dashboard.
 */
function useOptimisticChange<TVariables extends { conversationId: string }>(options: {
  call: (variables: TVariables) => Promise<unknown>;
  change: (variables: TVariables) => ListChange;
  leaves: boolean;
  onDone?: () => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const openId = useParams({ strict: false, select: (params) => params.conversationId ?? null });
  return useMutation({
    mutationFn: options.call,
    onMutate: async (variables: TVariables) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.conversationList });
      const before = queryClient.getQueryData<Conversation[]>(queryKeys.conversationList);
      if (before) queryClient.setQueryData(queryKeys.conversationList, options.change(variables)(before));
      if (options.leaves && variables.conversationId === openId) void navigate({ to: '/dashboard' });
      return { before };
    },
    onError: (_error, _variables, context) => {
      if (context?.before) queryClient.setQueryData(queryKeys.conversationList, context.before);
    },
    onSuccess: () => options.onDone?.(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.conversationList }),
  });
}

export function useStopConversation() {
  const { t } = useTranslation('workspace');
  return useOptimisticChange({
    call: ({ conversationId }: { conversationId: string }) => conversationRequests.stop(conversationId),
    change: ({ conversationId }) => (list) => changeConversation(list, conversationId, { status: 'STOPPED' }),
    leaves: true,
    onDone: () => toast.success(t('conversation.stopped')),
  });
}

export function useDeleteConversation() {
  return useOptimisticChange({
    call: ({ conversationId }: { conversationId: string }) => conversationRequests.remove(conversationId),
    change: ({ conversationId }) => (list) => withoutConversation(list, conversationId),
    leaves: true,
  });
}

export function useRenameConversation() {
  const { t } = useTranslation('workspace');
  const rename = useOptimisticChange({
    call: ({ conversationId, title }: { conversationId: string; title: string }) => conversationRequests.rename(conversationId, title),
    change: ({ conversationId, title }) => (list) => changeConversation(list, conversationId, { title }),
    leaves: false,
    onDone: () => toast.success(t('conversation.renamed')),
  });
  /** Saves a new title; an empty or unchanged one is cancelled without a call. */
  return (conversation: Conversation, raw: string) => {
    const title = renamedTitle(conversation.title, raw);
    if (title !== null) rename.mutate({ conversationId: conversation.conversation_id, title });
  };
}
