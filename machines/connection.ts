import { assign, enqueueActions, fromCallback, setup, type EventObject, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import { notProvidedAction } from './not-provided.ts';
import { messageNotice, serverNotice, type Notice } from './notice.ts';
import type { ClientAction, Event } from '../openapi/types.ts';

// The conversation's event socket (ARCHITECTURE.md §5), with the app connection profile:
// unlimited reconnection, 10 s to connect, 1–5 s between attempts (doubling, randomised by 0.5).
//
// - The `socket` actor is one WebSocket attempt: it is started with the id of the last event
//   received, so every reconnect resumes right after it, and it reports what happens on it.
// - A socket closed without an error frame ('ping timeout' / 'transport close' in socket.io
//   words, or no reason at all) reconnects quietly; any other disconnect shows its reason; a
//   failed attempt (connect error or timeout) shows 'Connection lost. Please refresh the page to
//   reconnect.' and keeps trying.
// - An error frame with error_code 401 (or a disconnect with reason authentication_failed)
//   shows 'Your session has expired. Refreshing page...' and reloads the page after 2 s.
// - Error frames saying only 'websocket error' or 'timeout' are not shown; others are (a toast,
//   and the status bar), 'An unknown error occurred on the WebSocket connection.' without text.
// - Actions sent while not connected wait in an outbox; the url's temp_message is sent once
//   connected, then removed from the url.

export type ErrorFrame = components['schemas']['ErrorFrame'];
export type ConnectionStatus = 'DISCONNECTED' | 'CONNECTING' | 'CONNECTED';

/** The app profile (spec §9). */
export const APP_PROFILE = { timeout: 10_000, minDelay: 1_000, maxDelay: 5_000, randomisation: 0.5 } as const;
export const SESSION_EXPIRED_RELOAD_MS = 2_000;

/** Disconnect reasons after which the socket reconnects without a word (null: closed without a reason). */
export const QUIET_CLOSE_REASONS: readonly (string | null)[] = [null, 'ping timeout', 'transport close'];
export const AUTHENTICATION_FAILED = 'authentication_failed';
/** Error texts too generic to show (spec §8). */
const SUPPRESSED_ERRORS = ['websocket error', 'timeout'];

/**
 * Wait before reconnect attempt `attempt` (0 for the first): 1 s doubling per attempt,
 * spread by ±50 % with `random` in [0, 1), kept within 1–5 s.
 */
export function reconnectDelay(attempt: number, random: number, profile: typeof APP_PROFILE = APP_PROFILE): number {
  const base = Math.min(profile.minDelay * 2 ** Math.max(0, attempt), profile.maxDelay);
  const spread = 1 + profile.randomisation * (2 * random - 1);
  return Math.round(Math.min(profile.maxDelay, Math.max(profile.minDelay, base * spread)));
}

export type ConnectionMessage = 'connectionLost' | 'sessionExpired' | 'unknownSocketError';
export type ConnectionNotice = Notice<ConnectionMessage>;

/** What an error frame or a disconnect reason shows: null when nothing, else the server's words or the fallback. */
export function socketErrorNotice(message: string | null | undefined): ConnectionNotice | null {
  const text = (message ?? '').trim();
  if (SUPPRESSED_ERRORS.includes(text.toLowerCase())) return null;
  return text === '' ? messageNotice('unknownSocketError') : serverNotice(text);
}

export interface ConnectionContext {
  /** Id of the last event received; -1 before any. */
  latestEventId: number;
  /** Failed attempts since the socket was last connected. */
  attempts: number;
  outbox: ClientAction[];
  tempMessage: string | null;
  notice: ConnectionNotice | null;
}

export interface ConnectionInput {
  /** The last event already loaded (over REST), so the socket streams only what is newer. */
  latestEventId?: number | null;
  /** The url's temp_message, sent once connected. */
  tempMessage?: string | null;
}

export interface SocketInput {
  latestEventId: number;
}

export type SocketReport =
  | { type: 'SOCKET_OPENED' }
  | { type: 'SOCKET_EVENT'; event: Event }
  | { type: 'SOCKET_ERROR_FRAME'; frame: ErrorFrame }
  /** The socket closed; `reason` null when it closed without one. */
  | { type: 'SOCKET_CLOSED'; reason: string | null }
  /** The attempt failed before the socket opened. */
  | { type: 'SOCKET_FAILED' };

export type ConnectionEvent =
  { type: 'CONNECT' } | { type: 'DISCONNECT' } | { type: 'SEND'; action: ClientAction } | SocketReport;

const tempMessageAction = (content: string): ClientAction => ({
  action: 'message',
  args: { content, image_urls: [], file_urls: [] },
});

export const connectionMachine = setup({
  types: { context: {} as ConnectionContext, events: {} as ConnectionEvent, input: {} as ConnectionInput },
  actors: {
    /** One WebSocket attempt (query latest_event_id = input.latestEventId); closes it when stopped. */
    socket: fromCallback<EventObject, SocketInput, SocketReport>(() => {
      throw new Error('"socket" is a side effect: supply it with machine.provide()');
    }),
  },
  actions: {
    /** Writes an oh_user_action frame on the open socket. */
    transmit: notProvidedAction<ClientAction>('transmit'),
    /** Hands a new event to the workspace. */
    receive: notProvidedAction<Event>('receive'),
    /** Removes temp_message from the url. */
    clearTempMessage: notProvidedAction('clearTempMessage'),
    /** A toast with the server's error. */
    announceError: notProvidedAction<ConnectionNotice>('announceError'),
    reloadPage: notProvidedAction('reloadPage'),
    trackEvent: assign((_, event: Event) => ({ latestEventId: event.id })),
    queue: assign(({ context }, action: ClientAction) => ({ outbox: [...context.outbox, action] })),
    connected: assign({ attempts: 0, notice: null, outbox: [], tempMessage: null }),
    failedAttempt: assign(({ context }) => ({ attempts: context.attempts + 1 })),
    showNotice: assign((_, notice: ConnectionNotice | null) => ({ notice })),
  },
  guards: {
    isNewEvent: ({ context }, event: Event) => event.id > context.latestEventId,
    isSessionExpiry: (_, frame: ErrorFrame) => frame.error_code === 401,
    isShown: (_, message: string | null) => socketErrorNotice(message) !== null,
    isQuietClose: (_, reason: string | null) => QUIET_CLOSE_REASONS.includes(reason),
    isAuthenticationFailure: (_, reason: string | null) => reason === AUTHENTICATION_FAILED,
  },
  delays: {
    connectTimeout: APP_PROFILE.timeout,
    reconnect: ({ context }) => reconnectDelay(context.attempts - 1, Math.random()),
    sessionExpiredReload: SESSION_EXPIRED_RELOAD_MS,
  },
}).createMachine({
  id: 'connection',
  context: ({ input }) => ({
    latestEventId: input.latestEventId ?? -1,
    attempts: 0,
    outbox: [],
    tempMessage: input.tempMessage ?? null,
    notice: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        CONNECT: { target: 'open' },
        SEND: { actions: { type: 'queue', params: ({ event }) => event.action } },
      },
    },
    open: {
      invoke: {
        id: 'socket',
        src: 'socket',
        input: ({ context }): SocketInput => ({ latestEventId: context.latestEventId }),
      },
      initial: 'connecting',
      on: {
        SOCKET_EVENT: {
          guard: { type: 'isNewEvent', params: ({ event }) => event.event },
          actions: [
            { type: 'trackEvent', params: ({ event }) => event.event },
            { type: 'receive', params: ({ event }) => event.event },
          ],
        },
        SOCKET_ERROR_FRAME: [
          { guard: { type: 'isSessionExpiry', params: ({ event }) => event.frame }, target: 'sessionExpired' },
          {
            guard: { type: 'isShown', params: ({ event }) => event.frame.message },
            actions: [
              { type: 'showNotice', params: ({ event }) => socketErrorNotice(event.frame.message) },
              {
                type: 'announceError',
                params: ({ event }) => socketErrorNotice(event.frame.message) ?? messageNotice('unknownSocketError'),
              },
            ],
          },
        ],
        SOCKET_CLOSED: [
          { guard: { type: 'isAuthenticationFailure', params: ({ event }) => event.reason }, target: 'sessionExpired' },
          {
            guard: { type: 'isQuietClose', params: ({ event }) => event.reason },
            target: 'waiting',
            actions: 'failedAttempt',
          },
          {
            target: 'waiting',
            actions: ['failedAttempt', { type: 'showNotice', params: ({ event }) => socketErrorNotice(event.reason) }],
          },
        ],
        SOCKET_FAILED: {
          target: 'waiting',
          actions: ['failedAttempt', { type: 'showNotice', params: messageNotice('connectionLost') }],
        },
        DISCONNECT: { target: 'idle' },
      },
      states: {
        connecting: {
          after: {
            connectTimeout: {
              target: '#connection.waiting',
              actions: ['failedAttempt', { type: 'showNotice', params: messageNotice('connectionLost') }],
            },
          },
          on: {
            SOCKET_OPENED: {
              target: 'connected',
              actions: [
                enqueueActions(({ context, enqueue }) => {
                  // The temp message was asked for before anything else could be queued: it goes first.
                  if (context.tempMessage !== null) {
                    enqueue({ type: 'transmit', params: tempMessageAction(context.tempMessage) });
                    enqueue('clearTempMessage');
                  }
                  for (const action of context.outbox) enqueue({ type: 'transmit', params: action });
                }),
                'connected',
              ],
            },
            SEND: { actions: { type: 'queue', params: ({ event }) => event.action } },
          },
        },
        connected: {
          on: { SEND: { actions: { type: 'transmit', params: ({ event }) => event.action } } },
        },
      },
    },
    /** Between attempts. */
    waiting: {
      after: { reconnect: { target: 'open' } },
      on: {
        SEND: { actions: { type: 'queue', params: ({ event }) => event.action } },
        DISCONNECT: { target: 'idle' },
      },
    },
    sessionExpired: {
      entry: { type: 'showNotice', params: messageNotice('sessionExpired') },
      after: { sessionExpiredReload: { target: 'reloading' } },
    },
    reloading: { type: 'final', entry: 'reloadPage' },
  },
});

type ConnectionSnapshot = SnapshotFrom<typeof connectionMachine>;

export function connectionStatus(snapshot: ConnectionSnapshot): ConnectionStatus {
  if (snapshot.matches({ open: 'connected' })) return 'CONNECTED';
  if (snapshot.matches({ open: 'connecting' })) return 'CONNECTING';
  return 'DISCONNECTED';
}

export const selectConnectionStatus = connectionStatus;
export const selectConnectionNotice = (snapshot: ConnectionSnapshot) => snapshot.context.notice;
export const selectLatestEventId = (snapshot: ConnectionSnapshot) => snapshot.context.latestEventId;
export const selectSessionExpired = (snapshot: ConnectionSnapshot) =>
  snapshot.matches('sessionExpired') || snapshot.matches('reloading');
