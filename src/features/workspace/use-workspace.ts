import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import i18next from 'i18next';
import { useMemo, useRef, useState, useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queries.ts';
import { fromPromise } from 'xstate';
import type { ConnectionNotice } from '../../../machines/connection.ts';
import { conversationMachine, selectCanConnect, type ConversationFailure } from '../../../machines/conversation.ts';
import { layoutMachine } from '../../../machines/layout.ts';
import { showErrorToast } from '../../app/services.ts';
import type { LiveConversationStream } from '../../realtime/conversation-stream.ts';
import type { ScreenModel } from './screen-model.ts';
import { liveConversation, streamedRuntimeStatus, streamedTitle } from './title.ts';
import {
  answerOnce,
  conversationRequests,
  layoutRequests,
  openConversationStream,
  type Prefetched,
} from '../conversations/index.ts';
import type { Conversation } from '../../../openapi/types.ts';

/**
 * The open conversation's record and what the user does to it (machines/conversation.ts), bound to
 * the API. `prefetched` answers the first load (asked again if it failed); later loads ask anew.
 */
export function useConversationActor(conversationId: string, prefetched?: Prefetched['record']) {
  const { t } = useTranslation('workspace');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [load] = useState(() => answerOnce(prefetched));
  const refreshList = () => void queryClient.invalidateQueries({ queryKey: queryKeys.conversationList });
  const describe = (failure: ConversationFailure) =>
    failure.kind === 'server' ? failure.text : t(`conversation.${failure.message}`);
  // Given once: `provide` builds the machine anew, too much for every render.
  const [logic] = useState(() =>
    conversationMachine.provide({
      actors: {
        fetchConversation: fromPromise(({ input }) => load(() => conversationRequests.get(input.conversationId))),
        startConversation: fromPromise(async ({ input }) => {
          const started = await conversationRequests.start(input.conversationId);
          refreshList();
          return started;
        }),
        stopConversation: fromPromise(async ({ input }) => {
          const stopped = await conversationRequests.stop(input.conversationId);
          refreshList();
          return stopped;
        }),
      },
      actions: {
        goToDashboard: () => void navigate({ to: '/dashboard' }),
        announceFailure: (_, failure) => showErrorToast(describe(failure)),
      },
    }),
  );
  return useActorRef(logic, { input: { conversationId } });
}

export type ConversationActor = ReturnType<typeof useConversationActor>;

/**
 * The conversation's event stream for as long as the workspace shows it: connected while the
 * conversation can be (RUNNING or with a runtime status), its status reported to the
 * conversation machine. `tempMessage` is read once; `clearTempMessage` drops it from the url;
 * `newestPage` is the history page prefetched for it, if any.
 */
export function useConversationStream(
  conversation: ConversationActor,
  tempMessage: string | null,
  clearTempMessage: () => void,
  newestPage?: Prefetched['newestPage'],
): LiveConversationStream | null {
  const { t } = useTranslation('workspace');
  const conversationId = useSelector(conversation, (snapshot) => snapshot.context.conversationId);
  const canConnect = useSelector(conversation, selectCanConnect);
  const [stream, setStream] = useState<LiveConversationStream | null>(null);
  const firstTempMessage = useRef(tempMessage);
  const firstPage = useRef(newestPage);
  const latest = useRef({ clearTempMessage, t });
  useEffect(() => {
    latest.current = { clearTempMessage, t };
  });

  useEffect(() => {
    const describe = (notice: ConnectionNotice) =>
      notice.kind === 'server' ? notice.text : latest.current.t(`connection.${notice.message}`);
    const created = openConversationStream({
      conversationId,
      ...(firstPage.current && { newestPage: firstPage.current }),
      tempMessage: firstTempMessage.current,
      clearTempMessage: () => {
        firstTempMessage.current = null;
        latest.current.clearTempMessage();
      },
      describe,
      announceError: showErrorToast,
      reloadPage: () => window.location.reload(),
    });
    setStream(created);
    return () => created.dispose();
  }, [conversationId]);

  useEffect(() => {
    if (!stream) return;
    if (canConnect) stream.connect();
    else stream.disconnect();
  }, [stream, canConnect]);

  const queryClient = useQueryClient();
  useEffect(() => {
    if (!stream) return;
    let connected = false;
    let titleEventId: number | null = null;
    return stream.subscribe(() => {
      const snapshot = stream.getSnapshot();
      const now = snapshot.connection === 'CONNECTED';
      if (now !== connected) {
        connected = now;
        conversation.send({ type: 'SOCKET_CONNECTED_CHANGED', connected });
      }
      // The agent named the conversation: the sidebar shows the new title.
      const named = streamedTitle(snapshot.events)?.id ?? null;
      if (named !== titleEventId) {
        titleEventId = named;
        void queryClient.invalidateQueries({ queryKey: queryKeys.conversationList });
      }
    });
  }, [stream, conversation, queryClient]);

  return stream;
}

/** The layout machine with the saved layouts API and flexlayout's popout windows. */
export function useLayoutActor(screen: ScreenModel) {
  const [logic] = useState(() =>
    layoutMachine.provide({
      actors: {
        listLayouts: fromPromise(() => layoutRequests.list()),
        saveLayout: fromPromise(({ input }) => layoutRequests.save(input.name, input.layout)),
      },
      actions: {
        popOut: (_, { component }) => screen.popOut(component),
        focusPopout: (_, { component }) => screen.focusWindow(component),
        dockPopout: (_, { layoutId }) => screen.dock(layoutId),
        announcePopoutBlocked: () => showErrorToast(i18next.t('workspace:layout.popoutBlocked')),
      },
    }),
  );
  return useActorRef(logic, { input: {} });
}

export type LayoutActor = ReturnType<typeof useLayoutActor>;

const noStream = () => () => undefined;

/** The record with what the stream said since it was read (title, runtime status); re-renders only when either changes. */
export function useLiveConversation(
  record: Conversation | null,
  stream: LiveConversationStream | null,
): Conversation | null {
  const titleEvent = useSyncExternalStore(stream?.subscribe ?? noStream, () =>
    stream ? streamedTitle(stream.getSnapshot().events) : null,
  );
  const runtimeEvent = useSyncExternalStore(stream?.subscribe ?? noStream, () =>
    stream ? streamedRuntimeStatus(stream.getSnapshot().events) : null,
  );
  return useMemo(
    () => (record === null ? null : liveConversation(record, titleEvent, runtimeEvent)),
    [record, titleEvent, runtimeEvent],
  );
}
