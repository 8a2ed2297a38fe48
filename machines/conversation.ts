import { assign, setup, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';
import { isServerRejection, messageNotice, serverNotice, type Notice } from './notice.ts';
import type { Conversation } from '../openapi/types.ts';

// The conversation open in the workspace: its record, kept fresh, and its runtime's start and
// restart. Stop, delete and rename are changes of their own (conversation-change.ts), made the
// same way from the sidebar.
//
// - Loaded on entry; a conversation opened STOPPED is started automatically. A 403 'Not
//   authenticated' on any fetch goes to /dashboard.
// - The record is polled every 3 s while STARTING, every 5 minutes otherwise.
// - Refresh (only while the socket is disconnected, as the workspace reports with
//   SOCKET_CONNECTED_CHANGED) and Restart stop the conversation, wait
//   1 s and start it again.

export type ConversationStatus = components['schemas']['ConversationStatus'];

/** The record (and the sidebar's list) is read again this often while a conversation starts (spec §4). */
export const POLL_WHILE_STARTING_MS = 3_000;
export const POLL_MS = 5 * 60_000;
export const RESTART_WAIT_MS = 1_000;

export type ConversationMessage = 'loadFailed' | 'startFailed' | 'stopFailed' | 'signInNeeded';
export type ConversationFailure = Notice<ConversationMessage>;

const failure = (error: unknown, message: ConversationMessage): ConversationFailure =>
  isServerRejection(error) && error.message !== '' ? serverNotice(error.message) : messageNotice(message);

/** The server refused with 403 'Not authenticated': the user goes to /dashboard. */
export function isNotAuthenticated(error: unknown): boolean {
  return isServerRejection(error) && error.status === 403 && error.message === 'Not authenticated';
}

/** The server answered 401: the request carried no valid sign-in. */
export const isSignedOut = (error: unknown) => isServerRejection(error) && error.status === 401;

/** The full-runtime socket opens only when the conversation is RUNNING or has a runtime status. */
export const canConnect = (conversation: Conversation | null) =>
  conversation !== null && (conversation.status === 'RUNNING' || conversation.runtime_status !== null);

export interface ConversationContext {
  conversationId: string;
  conversation: Conversation | null;
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
  | { type: 'RESTART' }
  /** Refresh on a disconnected chat. */
  | { type: 'REFRESH' }
  | { type: 'SOCKET_CONNECTED_CHANGED'; connected: boolean }
  /** The event stream says the status changed (e.g. STOPPED by a server restart) before the next poll would. */
  | { type: 'STATUS_STREAMED'; status: ConversationStatus };

const errorOf = ({ event }: { event: ErrorActorEvent }) => event.error;

export const conversationMachine = setup({
  types: { context: {} as ConversationContext, events: {} as ConversationEvent, input: {} as ConversationInput },
  actors: {
    fetchConversation: notProvidedPromise<Conversation, { conversationId: string }>('fetchConversation'),
    startConversation: notProvidedPromise<Conversation, { conversationId: string }>('startConversation'),
    stopConversation: notProvidedPromise<Conversation, { conversationId: string }>('stopConversation'),
  },
  actions: {
    goToDashboard: notProvidedAction('goToDashboard'),
    announceFailure: notProvidedAction<ConversationFailure>('announceFailure'),
    keep: assign((_, conversation: Conversation) => ({ conversation, failure: null })),
    rememberFailure: assign((_, failure: ConversationFailure) => ({ failure })),
    forgetFailure: assign({ failure: null }),
    setSocketConnected: assign((_, socketConnected: boolean) => ({ socketConnected })),
    setStatus: assign(({ context }, status: ConversationStatus) => ({
      conversation: context.conversation && { ...context.conversation, status },
    })),
  },
  guards: {
    isNotAuthenticated: (_, error: unknown) => isNotAuthenticated(error),
    isSignedOut: (_, error: unknown) => isSignedOut(error),
    isStopped: (_, conversation: Conversation | null) => conversation?.status === 'STOPPED',
    isStarting: ({ context }) => context.conversation?.status === 'STARTING',
    isSocketDisconnected: ({ context }) => !context.socketConnected,
  },
  delays: { pollWhileStarting: POLL_WHILE_STARTING_MS, poll: POLL_MS, restartWait: RESTART_WAIT_MS },
}).createMachine({
  id: 'conversation',
  context: ({ input }) => ({
    conversationId: input.conversationId,
    conversation: null,
    failure: null,
    socketConnected: false,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchConversation',
        src: 'fetchConversation',
        input: ({ context }) => ({ conversationId: context.conversationId }),
        onDone: [
          // Opened STOPPED: started automatically.
          {
            guard: { type: 'isStopped', params: ({ event }) => event.output },
            target: 'starting',
            actions: { type: 'keep', params: ({ event }) => event.output },
          },
          { target: 'ready', actions: { type: 'keep', params: ({ event }) => event.output } },
        ],
        onError: [
          { guard: { type: 'isNotAuthenticated', params: errorOf }, target: 'left', actions: 'goToDashboard' },
          // No one signed in (a link opened signed out, a stale token): the page asks to sign in, not to retry.
          {
            guard: { type: 'isSignedOut', params: errorOf },
            target: 'unavailable',
            actions: { type: 'rememberFailure', params: () => messageNotice<ConversationMessage>('signInNeeded') },
          },
          {
            target: 'unavailable',
            actions: { type: 'rememberFailure', params: ({ event }) => failure(event.error, 'loadFailed') },
          },
        ],
      },
    },
    unavailable: { on: { RETRY: { target: 'loading' } } },
    starting: {
      on: {
        SOCKET_CONNECTED_CHANGED: { actions: { type: 'setSocketConnected', params: ({ event }) => event.connected } },
      },
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
      on: {
        SOCKET_CONNECTED_CHANGED: { actions: { type: 'setSocketConnected', params: ({ event }) => event.connected } },
        STATUS_STREAMED: { actions: { type: 'setStatus', params: ({ event }) => event.status } },
      },
      initial: 'idle',
      states: {
        idle: {
          after: {
            pollWhileStarting: { guard: 'isStarting', target: 'polling' },
            poll: { target: 'polling' },
          },
          on: {
            START: {
              guard: { type: 'isStopped', params: ({ context }) => context.conversation },
              target: '#conversation.starting',
              actions: 'forgetFailure',
            },
            RESTART: { target: 'restarting' },
            REFRESH: { guard: 'isSocketDisconnected', target: 'restarting' },
          },
        },
        polling: {
          invoke: {
            id: 'fetchConversation',
            src: 'fetchConversation',
            input: ({ context }) => ({ conversationId: context.conversationId }),
            onDone: { target: 'idle', actions: { type: 'keep', params: ({ event }) => event.output } },
            onError: [
              {
                guard: { type: 'isNotAuthenticated', params: errorOf },
                target: '#conversation.left',
                actions: 'goToDashboard',
              },
              { target: 'idle' },
            ],
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
                onError: {
                  target: '#conversation.ready.idle',
                  actions: { type: 'announceFailure', params: ({ event }) => failure(event.error, 'stopFailed') },
                },
              },
            },
            waiting: { after: { restartWait: { target: 'starting' } } },
            starting: {
              invoke: {
                id: 'startConversation',
                src: 'startConversation',
                input: ({ context }) => ({ conversationId: context.conversationId }),
                onDone: {
                  target: '#conversation.ready.idle',
                  actions: { type: 'keep', params: ({ event }) => event.output },
                },
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

export const selectConversation = (snapshot: ConversationSnapshot) => snapshot.context.conversation;
export const selectCanConnect = (snapshot: ConversationSnapshot) => canConnect(snapshot.context.conversation);
export const selectIsLoading = (snapshot: ConversationSnapshot) => snapshot.matches('loading');
export const selectIsStarting = (snapshot: ConversationSnapshot) =>
  snapshot.matches('starting') ||
  snapshot.matches({ ready: 'restarting' }) ||
  snapshot.context.conversation?.status === 'STARTING';
export const selectIsUnavailable = (snapshot: ConversationSnapshot) => snapshot.matches('unavailable');
export const selectFailure = (snapshot: ConversationSnapshot) => snapshot.context.failure;
/** The Runtime menu: Start for a stopped conversation, Stop unless it is stopped, Restart whenever nothing else is under way. */
export const selectCanStart = (snapshot: ConversationSnapshot) =>
  snapshot.matches({ ready: 'idle' }) && snapshot.context.conversation?.status === 'STOPPED';
export const selectCanStop = (snapshot: ConversationSnapshot) =>
  snapshot.matches({ ready: 'idle' }) && snapshot.context.conversation?.status !== 'STOPPED';
export const selectCanRestart = (snapshot: ConversationSnapshot) => snapshot.matches({ ready: 'idle' });
