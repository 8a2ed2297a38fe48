import { assign, setup, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';
import { isServerRejection, messageNotice, serverNotice, type Notice } from './notice.ts';
import type { Conversation } from '../openapi/types.ts';

// The conversation open in the workspace: its record, kept fresh, and what the user does to it.
//
// - Loaded on entry; a conversation opened STOPPED is started automatically. A 403 'Not
//   authenticated' on any fetch goes to /dashboard.
// - The record is polled every 3 s while STARTING, every 5 minutes otherwise.
// - Refresh (only while the socket is disconnected, as the workspace reports with
//   SOCKET_CONNECTED_CHANGED) and Restart stop the conversation, wait
//   1 s and start it again.
// - Stop, delete and rename change the record at once and put it back when the server refuses.
//   Stopping or deleting the open conversation leaves for /dashboard; stopping says
//   'Conversation stopped successfully'. A rename to an empty (trimmed) or unchanged title is
//   cancelled without a call.

export type ConversationStatus = components['schemas']['ConversationStatus'];

export const POLL_WHILE_STARTING_MS = 3_000;
export const POLL_MS = 5 * 60_000;
export const RESTART_WAIT_MS = 1_000;

export type ConversationMessage = 'loadFailed' | 'startFailed' | 'stopFailed' | 'deleteFailed' | 'renameFailed';
export type ConversationFailure = Notice<ConversationMessage>;

const failure = (error: unknown, message: ConversationMessage): ConversationFailure =>
  isServerRejection(error) && error.message !== '' ? serverNotice(error.message) : messageNotice(message);

/** The server refused with 403 'Not authenticated': the user goes to /dashboard. */
export function isNotAuthenticated(error: unknown): boolean {
  return isServerRejection(error) && error.status === 403 && error.message === 'Not authenticated';
}

/** The title a rename would save: trimmed, or null when it is empty or unchanged (the rename is cancelled). */
export function renamedTitle(current: string, raw: string): string | null {
  const title = raw.trim();
  return title === '' || title === current.trim() ? null : title;
}

/** The full-runtime socket opens only when the conversation is RUNNING or has a runtime status. */
export const canConnect = (conversation: Conversation | null) =>
  conversation !== null && (conversation.status === 'RUNNING' || conversation.runtime_status !== null);

export interface ConversationContext {
  conversationId: string;
  conversation: Conversation | null;
  /** The record before an optimistic change, put back if the server refuses it. */
  rollback: Conversation | null;
  /** Marked deleted optimistically. */
  deleted: boolean;
  /** The event socket is connected (reported by the workspace); Refresh is for a disconnected chat. */
  socketConnected: boolean;
  failure: ConversationFailure | null;
}

export interface ConversationInput {
  conversationId: string;
}

export type ConversationEvent =
  | { type: 'RETRY' }
  | { type: 'START' }
  | { type: 'STOP' }
  | { type: 'RESTART' }
  /** Refresh on a disconnected chat. */
  | { type: 'REFRESH' }
  | { type: 'DELETE' }
  | { type: 'RENAME'; title: string }
  | { type: 'SOCKET_CONNECTED_CHANGED'; connected: boolean };

const errorOf = ({ event }: { event: ErrorActorEvent }) => event.error;

export const conversationMachine = setup({
  types: { context: {} as ConversationContext, events: {} as ConversationEvent, input: {} as ConversationInput },
  actors: {
    fetchConversation: notProvidedPromise<Conversation, { conversationId: string }>('fetchConversation'),
    startConversation: notProvidedPromise<Conversation, { conversationId: string }>('startConversation'),
    stopConversation: notProvidedPromise<Conversation, { conversationId: string }>('stopConversation'),
    deleteConversation: notProvidedPromise<void, { conversationId: string }>('deleteConversation'),
    renameConversation: notProvidedPromise<Conversation, { conversationId: string; title: string }>('renameConversation'),
  },
  actions: {
    goToDashboard: notProvidedAction('goToDashboard'),
    /** 'Conversation stopped successfully'. */
    announceStopped: notProvidedAction('announceStopped'),
    announceRenamed: notProvidedAction('announceRenamed'),
    announceFailure: notProvidedAction<ConversationFailure>('announceFailure'),
    keep: assign((_, conversation: Conversation) => ({ conversation, rollback: null, failure: null })),
    beginChange: assign(({ context }, change: Partial<Conversation>) => ({
      rollback: context.conversation,
      conversation: context.conversation ? { ...context.conversation, ...change } : null,
    })),
    markDeleted: assign(({ context }) => ({ rollback: context.conversation, deleted: true })),
    rollBack: assign(({ context }) => ({ conversation: context.rollback ?? context.conversation, rollback: null, deleted: false })),
    rememberFailure: assign((_, failure: ConversationFailure) => ({ failure })),
    forgetFailure: assign({ failure: null }),
    setSocketConnected: assign((_, socketConnected: boolean) => ({ socketConnected })),
  },
  guards: {
    isNotAuthenticated: (_, error: unknown) => isNotAuthenticated(error),
    isStopped: (_, conversation: Conversation) => conversation.status === 'STOPPED',
    isStarting: ({ context }) => context.conversation?.status === 'STARTING',
    isNotStopped: ({ context }) => context.conversation?.status !== 'STOPPED',
    isStoppedNow: ({ context }) => context.conversation?.status === 'STOPPED',
    isSocketDisconnected: ({ context }) => !context.socketConnected,
    isNewTitle: ({ context }, raw: string) => renamedTitle(context.conversation?.title ?? '', raw) !== null,
  },
  delays: { pollWhileStarting: POLL_WHILE_STARTING_MS, poll: POLL_MS, restartWait: RESTART_WAIT_MS },
}).createMachine({
  id: 'conversation',
  context: ({ input }) => ({ conversationId: input.conversationId, conversation: null, rollback: null, deleted: false, failure: null, socketConnected: false }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchConversation',
        src: 'fetchConversation',
        input: ({ context }) => ({ conversationId: context.conversationId }),
        onDone: [
          // Opened STOPPED: started automatically.
          { guard: { type: 'isStopped', params: ({ event }) => event.output }, target: 'starting', actions: { type: 'keep', params: ({ event }) => event.output } },
          { target: 'ready', actions: { type: 'keep', params: ({ event }) => event.output } },
        ],
        onError: [
          { guard: { type: 'isNotAuthenticated', params: errorOf }, target: 'left', actions: 'goToDashboard' },
          { target: 'unavailable', actions: { type: 'rememberFailure', params: ({ event }) => failure(event.error, 'loadFailed') } },
        ],
      },
    },
    unavailable: { on: { RETRY: { target: 'loading' } } },
    starting: {
      on: { SOCKET_CONNECTED_CHANGED: { actions: { type: 'setSocketConnected', params: ({ event }) => event.connected } } },
      invoke: {
        id: 'startConversation',
        src: 'startConversation',
        input: ({ context }) => ({ conversationId: context.conversationId }),
        onDone: { target: 'ready', actions: { type: 'keep', params: ({ event }) => event.output } },
        onError: {
          target: 'ready',
          actions: [
            { type: 'rememberFailure', params: ({ event }) => failure(event.error, 'startFailed') },
            { type: 'announceFailure', params: ({ event }) => failure(event.error, 'startFailed') },
          ],
        },
      },
    },
    ready: {
      // The socket opens only once the record is known, so only these states hear about it.
      on: { SOCKET_CONNECTED_CHANGED: { actions: { type: 'setSocketConnected', params: ({ event }) => event.connected } } },
      initial: 'idle',
      states: {
        idle: {
          after: {
            pollWhileStarting: { guard: 'isStarting', target: 'polling' },
            poll: { target: 'polling' },
          },
          on: {
            START: { guard: 'isStoppedNow', target: '#conversation.starting', actions: 'forgetFailure' },
            STOP: { guard: 'isNotStopped', target: 'stopping' },
            RESTART: { target: 'restarting' },
            REFRESH: { guard: 'isSocketDisconnected', target: 'restarting' },
            DELETE: { target: 'deleting' },
            RENAME: { guard: { type: 'isNewTitle', params: ({ event }) => event.title }, target: 'renaming' },
          },
        },
        polling: {
          invoke: {
            id: 'fetchConversation',
            src: 'fetchConversation',
            input: ({ context }) => ({ conversationId: context.conversationId }),
            onDone: { target: 'idle', actions: { type: 'keep', params: ({ event }) => event.output } },
            onError: [{ guard: { type: 'isNotAuthenticated', params: errorOf }, target: '#conversation.left', actions: 'goToDashboard' }, { target: 'idle' }],
          },
        },
        stopping: {
          entry: { type: 'beginChange', params: { status: 'STOPPED' } },
          invoke: {
            id: 'stopConversation',
            src: 'stopConversation',
            input: ({ context }) => ({ conversationId: context.conversationId }),
            onDone: { target: '#conversation.left', actions: [{ type: 'keep', params: ({ event }) => event.output }, 'announceStopped', 'goToDashboard'] },
            onError: {
              target: 'idle',
              actions: ['rollBack', { type: 'announceFailure', params: ({ event }) => failure(event.error, 'stopFailed') }],
            },
          },
        },
        deleting: {
          entry: 'markDeleted',
          invoke: {
            id: 'deleteConversation',
            src: 'deleteConversation',
            input: ({ context }) => ({ conversationId: context.conversationId }),
            onDone: { target: '#conversation.left', actions: 'goToDashboard' },
            onError: {
              target: 'idle',
              actions: ['rollBack', { type: 'announceFailure', params: ({ event }) => failure(event.error, 'deleteFailed') }],
            },
          },
        },
        renaming: {
          entry: {
            type: 'beginChange',
            params: ({ context, event }) => ({ title: event.type === 'RENAME' ? (renamedTitle(context.conversation?.title ?? '', event.title) ?? '') : '' }),
          },
          invoke: {
            id: 'renameConversation',
            src: 'renameConversation',
            input: ({ context }) => ({ conversationId: context.conversationId, title: context.conversation?.title ?? '' }),
            onDone: { target: 'idle', actions: [{ type: 'keep', params: ({ event }) => event.output }, 'announceRenamed'] },
            onError: {
              target: 'idle',
              actions: ['rollBack', { type: 'announceFailure', params: ({ event }) => failure(event.error, 'renameFailed') }],
            },
          },
        },
        /** Stop, wait 1 s, start. */
        restarting: {
          initial: 'stopping',
          states: {
            stopping: {
              invoke: {
                id: 'stopConversation',
                src: 'stopConversation',
                input: ({ context }) => ({ conversationId: context.conversationId }),
                onDone: { target: 'waiting', actions: { type: 'keep', params: ({ event }) => event.output } },
                onError: { target: '#conversation.ready.idle', actions: { type: 'announceFailure', params: ({ event }) => failure(event.error, 'stopFailed') } },
              },
            },
            waiting: { after: { restartWait: { target: 'starting' } } },
            starting: {
              invoke: {
                id: 'startConversation',
                src: 'startConversation',
                input: ({ context }) => ({ conversationId: context.conversationId }),
                onDone: { target: '#conversation.ready.idle', actions: { type: 'keep', params: ({ event }) => event.output } },
                onError: {
                  target: '#conversation.ready.idle',
                  actions: [
                    { type: 'rememberFailure', params: ({ event }) => failure(event.error, 'startFailed') },
                    { type: 'announceFailure', params: ({ event }) => failure(event.error, 'startFailed') },
                  ],
                },
              },
            },
          },
        },
      },
    },
    /** Left for /dashboard. */
    left: { type: 'final' },
  },
});

type ConversationSnapshot = SnapshotFrom<typeof conversationMachine>;

export const selectConversation = (snapshot: ConversationSnapshot) => (snapshot.context.deleted ? null : snapshot.context.conversation);
export const selectCanConnect = (snapshot: ConversationSnapshot) => !snapshot.context.deleted && canConnect(snapshot.context.conversation);
export const selectIsLoading = (snapshot: ConversationSnapshot) => snapshot.matches('loading');
export const selectIsStarting = (snapshot: ConversationSnapshot) =>
  snapshot.matches('starting') || snapshot.matches({ ready: 'restarting' }) || snapshot.context.conversation?.status === 'STARTING';
export const selectIsUnavailable = (snapshot: ConversationSnapshot) => snapshot.matches('unavailable');
export const selectFailure = (snapshot: ConversationSnapshot) => snapshot.context.failure;
/** Stop is offered unless the conversation is stopped; runtime controls need an active conversation. */
export const selectCanStop = (snapshot: ConversationSnapshot) => snapshot.matches({ ready: 'idle' }) && snapshot.context.conversation?.status !== 'STOPPED';
