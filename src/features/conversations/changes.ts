import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { createActor, fromPromise } from 'xstate';
import {
  conversationChangeMachine,
  type ConversationChange,
  type ServerChange,
} from '../../../machines/conversation-change.ts';
import { queryKeys } from '../../api/queries.ts';
import { showErrorToast } from '../../app/services.ts';
import { toast } from '../../ui/index.ts';
import { conversationRequests } from './requests.ts';
import { changeConversation, withoutConversation } from './rules.ts';
import type { Conversation } from '../../../openapi/types.ts';

const serverCall = (change: ServerChange): Promise<unknown> => {
  switch (change.kind) {
    case 'stop':
      return conversationRequests.stop(change.conversationId);
    case 'delete':
      return conversationRequests.remove(change.conversationId);
    case 'rename':
      return conversationRequests.rename(change.conversationId, change.title);
  }
};

const listChange = (change: ServerChange) => (list: Conversation[]) => {
  switch (change.kind) {
    case 'stop':
      return changeConversation(list, change.conversationId, { status: 'STOPPED' });
    case 'delete':
      return withoutConversation(list, change.conversationId);
    case 'rename':
      return changeConversation(list, change.conversationId, { title: change.title });
  }
};

/** The change on the conversation list at once, the call, the list put back if the call fails; the list is read again either way. */
async function changeList(queryClient: QueryClient, change: ServerChange): Promise<void> {
  await queryClient.cancelQueries({ queryKey: queryKeys.conversationList });
  const before = queryClient.getQueryData<Conversation[]>(queryKeys.conversationList);
  if (before) queryClient.setQueryData(queryKeys.conversationList, listChange(change)(before));
  try {
    await serverCall(change);
  } catch (error) {
    if (before) queryClient.setQueryData(queryKeys.conversationList, before);
    throw error;
  } finally {
    void queryClient.invalidateQueries({ queryKey: queryKeys.conversationList });
  }
}

/** Makes a change to a conversation (machines/conversation-change.ts): stop, delete or rename, from any view. */
export function useConversationChanges(): (change: ConversationChange) => void {
  const { t } = useTranslation('conversations');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const openId = useParams({ strict: false, select: (params) => params.conversationId ?? null });
  return useCallback(
    (change: ConversationChange) => {
      const logic = conversationChangeMachine.provide({
        actors: { change: fromPromise(({ input }) => changeList(queryClient, input)) },
        actions: {
          leaveIfOpen: (_, { conversationId }) => {
            if (conversationId === openId) void navigate({ to: '/dashboard' });
          },
          announceDone: (_, { kind }) => {
            if (kind === 'stop') toast.success(t('changes.stopped'));
            if (kind === 'rename') toast.success(t('changes.renamed'));
          },
          announceFailure: (_, failure) =>
            showErrorToast(failure.kind === 'server' ? failure.text : t(`changes.${failure.message}`)),
        },
      });
      // Not tied to the view that asked: it runs to its end even if that view closes.
      createActor(logic, { input: change }).start();
    },
    [navigate, openId, queryClient, t],
  );
}
