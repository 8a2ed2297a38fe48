import { QueryObserver, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import i18next from 'i18next';
import { createContext, useContext, useState } from 'react';
import { fromCallback, type EventObject } from 'xstate';
import { agentMachine } from '../../../machines/agent.ts';
import { chatInputMachine, type AttachedImage, type PendingMessage } from '../../../machines/chat-input.ts';
import {
  openConversationMachine,
  selectAgent,
  selectChatInput,
  selectFork,
  selectUpload,
  type OpenConversationActor,
  type StreamReport,
} from '../../../machines/open-conversation.ts';
import { imageTypeOf, uploadMachine, type FileLike } from '../../../machines/upload.ts';
import { configQuery, currentUserQuery, settingsQuery } from '../../api/queries.ts';
import { keepDraft, readDraft } from '../../app/local-data.ts';
import { requests, tokenStore } from '../../app/services.ts';
import type { ConnectionStatus, ConversationStream } from '../../realtime/types.ts';
import { toast } from '../../ui/index.ts';
import { isRecent, playFinishSound } from './finish-sound.ts';
import { forkLogic } from './fork-actor.ts';
import { keepUnsent, readUnsent } from './unsent-messages.ts';
import { uploadFilesActor } from './upload-request.ts';
import type { ClientAction, Conversation } from '../../../openapi/types.ts';

// The chat's actor tree for one open conversation (machines/open-conversation.ts), given its side
// effects once, where the chat mounts: the socket, the API, the Query cache, storage and toasts.

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

/** The stream's events (those it holds at once, then each newer tail: older pages loaded later are history) and the socket's status when it changes. */
const watchStream = (stream: ConversationStream) =>
  fromCallback<EventObject, void, StreamReport>(({ sendBack }) => {
    let lastForwarded = -1;
    let opened = false;
    let reported: ConnectionStatus | null = null;
    const report = () => {
      // The events ascend by id: only the tail past the last one forwarded is looked at, however long the history.
      const { events, connection } = stream.getSnapshot();
      let first = events.length;
      while (first > 0 && (events[first - 1]?.id ?? -1) > lastForwarded) first -= 1;
      const fresh = events.slice(first);
      if (fresh.length > 0 || !opened) {
        opened = true;
        lastForwarded = fresh.at(-1)?.id ?? lastForwarded;
        sendBack({ type: 'EVENTS_RECEIVED', events: fresh });
      }
      if (connection !== reported) {
        reported = connection;
        sendBack({ type: 'CONNECTION_CHANGED', connection });
      }
    };
    report();
    return stream.subscribe(report);
  });

/** Credits in dollars in saas mode, null in oss mode (no credits), from the Query cache as it changes. */
const watchBalance = (queryClient: ReturnType<typeof useQueryClient>) =>
  fromCallback<EventObject, void, { type: 'CREDITS_CHANGED'; balance: number | null }>(({ sendBack }) => {
    const config = new QueryObserver(queryClient, configQuery(requests));
    const user = new QueryObserver(queryClient, { ...currentUserQuery(requests), enabled: false });
    let told: number | null = null;
    const report = () => {
      const saas = config.getCurrentResult().data?.APP_MODE === 'saas';
      user.setOptions({ ...currentUserQuery(requests), enabled: saas });
      const balance = saas ? (user.getCurrentResult().data?.credits.balance ?? null) : null;
      if (balance === told) return;
      told = balance;
      sendBack({ type: 'CREDITS_CHANGED', balance });
    };
    const stopConfig = config.subscribe(report);
    const stopUser = user.subscribe(report);
    report();
    return () => {
      stopConfig();
      stopUser();
    };
  });

/** The open conversation's chat tree, bound to the stream, the API and the browser. */
export function useChatTree(stream: ConversationStream, conversation: Conversation): OpenConversationActor {
  const queryClient = useQueryClient();
  // Not useNavigate: the chat renders without a router in its component tests, which never fork.
  const router = useRouter({ warn: false });
  // Given once: the route mounts the chat anew for each conversation.
  const [logic] = useState(() =>
    openConversationMachine.provide({
      actors: {
        agent: agentMachine.provide({
          actions: {
            requestAgentState: (_, params) => stream.send({ action: 'change_agent_state', args: params }),
            announceError: (_, notice) => {
              toast.error(notice.kind === 'server' ? notice.text : i18next.t('chat:agent.unknownErrorToast'));
            },
          },
        }),
        chatInput: chatInputMachine.provide({
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
        upload: uploadMachine.provide({
          actors: {
            uploadFiles: uploadFilesActor({ conversationId: conversation.conversation_id, readToken: tokenStore.read }),
          },
          actions: {
            attachImages: ({ system }, files) => {
              void Promise.all(files.map(readAsDataUrl)).then((images) =>
                system.get('chatInput')?.send({ type: 'IMAGES_ATTACHED', images }),
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
        fork: forkLogic(conversation.conversation_id, (forkId) => {
          void router.navigate({ to: '/experiment/conversations/$conversationId', params: { conversationId: forkId } });
        }),
        watchStream: watchStream(stream),
        watchBalance: watchBalance(queryClient),
      },
      actions: {
        keepUnsent: (_, pending) => keepUnsent(stream.conversationId, pending),
        announceFinish: (_, { at }) => {
          // A conversation is open: someone is signed in, so the settings can be asked for.
          void queryClient.ensureQueryData(settingsQuery(requests)).then((settings) => {
            if (settings?.enable_sound_notifications === true && isRecent(at ?? undefined, Date.now()))
              playFinishSound();
          });
        },
      },
    }),
  );
  return useActorRef(logic, {
    input: {
      idPrefix: `${stream.conversationId}-${PAGE_LOAD_ID}`,
      draft: readDraft(`chat.${stream.conversationId}`),
      unsent: readUnsent(stream.conversationId),
    },
  });
}

/** The open conversation's chat tree, for the chat's components. */
export const ChatTreeContext = createContext<OpenConversationActor | null>(null);

/** The chat's actors: the agent, the message box, the upload and the fork of the open conversation. */
export function useChatActors() {
  const tree = useContext(ChatTreeContext);
  if (!tree) throw new Error('useChatActors: no chat tree above');
  const agent = useSelector(tree, selectAgent);
  const chatInput = useSelector(tree, selectChatInput);
  const upload = useSelector(tree, selectUpload);
  const fork = useSelector(tree, selectFork);
  return { tree, agent, chatInput, upload, fork };
}

export type ChatActors = ReturnType<typeof useChatActors>;
