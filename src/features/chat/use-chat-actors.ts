import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import i18next from 'i18next';
import { useEffect, useState } from 'react';
import { toast } from '../../ui/index.ts';
import { agentMachine, selectSendDisabled } from '../../../machines/agent.ts';
import {
  chatInputMachine,
  selectHasPending,
  type AttachedImage,
  type PendingMessage,
} from '../../../machines/chat-input.ts';
import { imageTypeOf, selectIsUploading, uploadMachine, type FileLike } from '../../../machines/upload.ts';
import { currentUserQuery } from '../../api/queries.ts';
import { useClientConfig } from '../../app/hooks.ts';
import { keepDraft, readDraft } from '../../app/local-data.ts';
import { requests, tokenStore } from '../../app/services.ts';
import type { ConnectionStatus, ConversationStream } from '../../realtime/types.ts';
import { keepUnsent, takeUnsent } from './unsent-messages.ts';
import { uploadFilesActor } from './upload-request.ts';
import type { ClientAction, Conversation } from '../../../openapi/types.ts';

// The chat's three machines for one open conversation, wired to the stream: every new event goes
// to the agent and the message box; the facts each needs (credits, upload, socket, conversation
// status) follow the others.

/** Makes optimistic message ids unique across visits of the same conversation. */
const PAGE_LOAD_ID = Date.now().toString(36);

const readAsDataUrl = (file: FileLike) =>
  new Promise<AttachedImage>((resolve, reject) => {
    const reader = new FileReader();
    reader.addEventListener('load', () => resolve({ name: file.name, url: String(reader.result) }));
    reader.addEventListener('error', () => reject(reader.error ?? new Error(file.name)));
    reader.readAsDataURL(new Blob([file as File], { type: imageTypeOf(file) }));
  });

/** The `message` action for a sent message; the client id is echoed back for de-duplication. */
export function messageAction(message: PendingMessage, images: readonly AttachedImage[]): ClientAction {
  const args = {
    content: message.content,
    timestamp: message.timestamp,
    image_urls: images.map((image) => image.url),
    client_id: message.id,
  };
  return { action: 'message', id: message.id, source: 'user', timestamp: message.timestamp, args };
}

/** Credits in dollars in saas mode; null in oss mode (no credits). */
function useBalance(): number | null {
  const config = useClientConfig();
  const saas = config?.APP_MODE === 'saas';
  const user = useQuery({ ...currentUserQuery(requests), enabled: saas }).data;
  return saas ? (user?.credits.balance ?? null) : null;
}

export function useChatActors(stream: ConversationStream, conversation: Conversation) {
  // Each machine is given its implementations once: `provide` builds the machine anew, too much for every render.
  const [agentLogic] = useState(() =>
    agentMachine.provide({
      actions: {
        requestAgentState: (_, params) => stream.send({ action: 'change_agent_state', args: params }),
        announceError: (_, notice) => {
          toast.error(notice.kind === 'server' ? notice.text : i18next.t('chat:agent.unknownErrorToast'));
        },
      },
    }),
  );
  const agent = useActorRef(agentLogic);
  const [chatInputLogic] = useState(() =>
    chatInputMachine.provide({
      actions: {
        sendMessage: (_, { message, images }) => stream.send(messageAction(message, images)),
        announceInsufficientCredits: () => {
          toast.error(i18next.t('chat:input.insufficientCredits'));
        },
        announceSendFailure: () => {
          toast.error(i18next.t('chat:input.sendFailed'));
        },
        keepDraft: (_, text) => keepDraft(`chat.${stream.conversationId}`, text),
      },
    }),
  );
  const chatInput = useActorRef(chatInputLogic, {
    input: { idPrefix: `${stream.conversationId}-${PAGE_LOAD_ID}`, draft: readDraft(`chat.${stream.conversationId}`) },
  });
  const [uploadLogic] = useState(() =>
    uploadMachine.provide({
      actors: {
        uploadFiles: uploadFilesActor({ conversationId: conversation.conversation_id, readToken: tokenStore.read }),
      },
      actions: {
        attachImages: (_, files) => {
          void Promise.all(files.map(readAsDataUrl)).then((images) =>
            chatInput.send({ type: 'IMAGES_ATTACHED', images }),
          );
        },
        announceSkipped: (_, skipped) => {
          toast.error(i18next.t('chat:upload.skipped', { name: skipped.name, reason: skipped.reason }));
        },
        announceUploaded: (_, result) => stream.send({ action: 'files_uploaded', args: result }),
        announceFailure: () => {
          toast.error(i18next.t('chat:upload.failed'));
        },
      },
    }),
  );
  const upload = useActorRef(uploadLogic);

  // Messages not echoed yet stay in the browser; once the history is in (the socket is connected),
  // those a previous visit sent that never reached the agent come back into the box.
  useEffect(() => {
    let restored = false;
    const restoreOnce = () => {
      if (restored || stream.getSnapshot().connection !== 'CONNECTED') return;
      restored = true;
      const unsent = takeUnsent(stream.conversationId, stream.getSnapshot().events);
      const draft = chatInput.getSnapshot().context.text;
      if (unsent) chatInput.send({ type: 'TEXT_CHANGED', text: [unsent, draft].filter(Boolean).join('\n\n') });
    };
    const stopRestoring = stream.subscribe(restoreOnce);
    restoreOnce();
    let kept = chatInput.getSnapshot().context.pending;
    const keeping = chatInput.subscribe((snapshot) => {
      if (snapshot.context.pending === kept) return;
      kept = snapshot.context.pending;
      keepUnsent(stream.conversationId, kept);
    });
    return () => {
      stopRestoring();
      keeping.unsubscribe();
    };
  }, [stream, chatInput]);

  // Every event newer than the last one forwarded (older pages loaded later are history); those
  // the chat opened with are history too, the ones after them live.
  useEffect(() => {
    let lastForwarded = -1;
    const forward = (live: boolean) => {
      // The events ascend by id: only the tail past the last one forwarded is looked at, however long the history.
      const { events } = stream.getSnapshot();
      let first = events.length;
      while (first > 0 && (events[first - 1]?.id ?? -1) > lastForwarded) first -= 1;
      for (const event of events.slice(first)) {
        lastForwarded = event.id;
        agent.send({ type: 'EVENT_RECEIVED', event, live });
        chatInput.send({ type: 'EVENT_RECEIVED', event });
      }
    };
    forward(false);
    return stream.subscribe(() => forward(true));
  }, [stream, agent, chatInput]);

  const balance = useBalance();
  useEffect(() => {
    agent.send({ type: 'CREDITS_CHANGED', balance });
    chatInput.send({ type: 'CREDITS_CHANGED', balance });
    upload.send({ type: 'CREDITS_CHANGED', balance });
  }, [balance, agent, chatInput, upload]);

  const uploading = useSelector(upload, selectIsUploading);
  useEffect(() => agent.send({ type: 'UPLOADING_CHANGED', uploading }), [uploading, agent]);

  const optimisticPending = useSelector(chatInput, selectHasPending);
  useEffect(() => agent.send({ type: 'OPTIMISTIC_CHANGED', pending: optimisticPending }), [optimisticPending, agent]);

  // Told when it changes, not with every event the stream publishes.
  useEffect(() => {
    let reported: ConnectionStatus | null = null;
    const report = () => {
      const { connection } = stream.getSnapshot();
      if (connection === reported) return;
      reported = connection;
      agent.send({ type: 'CONNECTION_CHANGED', connection });
    };
    report();
    return stream.subscribe(report);
  }, [stream, agent]);

  useEffect(
    () => agent.send({ type: 'CONVERSATION_STATUS_CHANGED', status: conversation.status }),
    [conversation.status, agent],
  );

  const busy = useSelector(agent, selectSendDisabled);
  useEffect(() => chatInput.send({ type: 'BUSY_CHANGED', busy }), [busy, chatInput]);

  return { agent, chatInput, upload, balance };
}

export type ChatActors = ReturnType<typeof useChatActors>;
