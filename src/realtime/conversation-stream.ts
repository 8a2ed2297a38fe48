import { createActor, fromCallback, type EventObject } from 'xstate';
import type { components } from '../../openapi/schema.d.ts';
import {
  connectionMachine,
  connectionStatus,
  type ConnectionNotice,
  type SocketInput,
  type SocketReport,
} from '../../machines/connection.ts';
import { mergeEvents, newestEventId, oldestEventId } from './merge.ts';
import { HISTORY_PAGE_SIZE, type ConversationStream, type StreamSnapshot } from './types.ts';
import type { ClientAction, Event } from '../../openapi/types.ts';

type EventPage = components['schemas']['EventPage'];
type ServerFrame = components['schemas']['ServerFrame'];

export interface ConversationStreamOptions {
  conversationId: string;
  /** The socket endpoint, e.g. `wss://host/socket` (query parameters are added). */
  socketUrl: string;
  /** Credentials for the socket query (`auth_token`, `session_api_key`), read at each attempt. */
  credentials: () => Record<string, string>;
  /** GET /api/conversations/{id}/events: newest first, older than `beforeId` when given. */
  fetchEvents: (query: { beforeId?: number; limit: number }) => Promise<EventPage>;
  /** The newest page (`pageSize` events), when it was asked for before the stream existed; fetched again if it failed. */
  newestPage?: Promise<EventPage>;
  /** The url's temp_message: sent once the socket is open, then `clearTempMessage` is called. */
  tempMessage?: string | null;
  clearTempMessage: () => void;
  /** The words of a connection notice, in the user's language. */
  describe: (notice: ConnectionNotice) => string;
  /** Shows an error (a toast). */
  announceError: (text: string) => void;
  /** The signed-in user's balance changed (dollars): the server pushes it after a charge. */
  onBalance?: (balance: number) => void;
  reloadPage: () => void;
  /** The WebSocket class (the browser's by default; tests pass `ws`'s). */
  WebSocket?: unknown;
  pageSize?: number;
}

/** A ConversationStream the workspace opens and closes as the conversation can or cannot be connected. */
export interface LiveConversationStream extends ConversationStream {
  /** Opens the socket (after the newest history page is loaded), keeping it open until `disconnect`. */
  connect(): void;
  disconnect(): void;
  /** Closes everything for good. */
  dispose(): void;
}

/** A socket endpoint (the conversation socket unless `path` says another) on the page's own host. */
export function pageSocketUrl(
  path = '/socket',
  location: Pick<Location, 'protocol' | 'host'> = window.location,
): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
}

function frameOf(data: unknown): ServerFrame | null {
  try {
    const frame = JSON.parse(String(data)) as ServerFrame | null;
    return frame !== null && typeof frame === 'object' ? frame : null;
  } catch {
    return null;
  }
}

/**
 * The conversation's events: the newest page over REST, then the socket (driven by the connection
 * machine with the app profile) from the newest id held, older pages on demand. Each socket
 * attempt is one plain WebSocket: the machine times the attempt out, waits between attempts and
 * starts the next one at the newest id, so a reconnect resumes without a gap.
 */
export function createConversationStream(options: ConversationStreamOptions): LiveConversationStream {
  const pageSize = options.pageSize ?? HISTORY_PAGE_SIZE;
  // The events are a store, not machine context: thousands of them, appended one by one and read by selectors (the connection's flow is the machine's).
  const listeners = new Set<() => void>();
  let events: readonly Event[] = [];
  let hasOlder = false;
  let loadingOlder = false;
  let wantsConnection = false;
  let disposed = false;
  /** Actions sent before the machine exists (the newest page is still loading). */
  let early: ClientAction[] = [];
  let socket: WebSocket | null = null;
  const Socket = (options.WebSocket ?? globalThis.WebSocket) as typeof WebSocket;
  let snapshot: StreamSnapshot = {
    events,
    hasOlder,
    loadingOlder,
    connection: 'DISCONNECTED',
    connectionMessage: null,
  };

  const socketAttempt = fromCallback<EventObject, SocketInput, SocketReport>(({ input, sendBack }) => {
    const query = new URLSearchParams({
      conversation_id: options.conversationId,
      latest_event_id: String(input.latestEventId),
      ...options.credentials(),
    });
    const attempt = new Socket(`${options.socketUrl}?${query.toString()}`);
    // A failed attempt is reported by its 'close'; an 'error' nobody listens to, `ws` (in Node) throws.
    attempt.addEventListener('error', () => undefined);
    let opened = false;
    const onOpen = () => {
      opened = true;
      socket = attempt;
      sendBack({ type: 'SOCKET_OPENED' });
    };
    const onMessage = (message: MessageEvent) => {
      const frame = frameOf(message.data);
      if (frame === null) return;
      if ('error' in frame) sendBack({ type: 'SOCKET_ERROR_FRAME', frame });
      else if (frame.type === 'oh_event') sendBack({ type: 'SOCKET_EVENT', event: frame.data });
      else if (frame.type === 'balance') options.onBalance?.(frame.data.balance);
    };
    const onClose = (event: { reason?: string }) => {
      socket = null;
      sendBack(
        opened ? { type: 'SOCKET_CLOSED', reason: event.reason ? event.reason : null } : { type: 'SOCKET_FAILED' },
      );
    };
    attempt.addEventListener('open', onOpen);
    attempt.addEventListener('message', onMessage);
    attempt.addEventListener('close', onClose);
    return () => {
      attempt.removeEventListener('open', onOpen);
      attempt.removeEventListener('message', onMessage);
      attempt.removeEventListener('close', onClose);
      if (socket === attempt) socket = null;
      attempt.close();
    };
  });

  const machine = connectionMachine.provide({
    actors: { socket: socketAttempt },
    actions: {
      transmit: (_, action) => socket?.send(JSON.stringify({ type: 'oh_user_action', data: action })),
      receive: (_, event) => {
        events = mergeEvents(events, [event]);
        publish();
      },
      clearTempMessage: () => options.clearTempMessage(),
      announceError: (_, notice) => options.announceError(options.describe(notice)),
      reloadPage: () => options.reloadPage(),
    },
  });
  let actor: ReturnType<typeof createActor<typeof machine>> | null = null;

  function publish() {
    const state = actor?.getSnapshot();
    const notice = state?.context.notice ?? null;
    const next: StreamSnapshot = {
      events,
      hasOlder,
      loadingOlder,
      connection: state ? connectionStatus(state) : 'DISCONNECTED',
      connectionMessage: notice ? options.describe(notice) : null,
    };
    const changed = (Object.keys(next) as (keyof StreamSnapshot)[]).some((key) => next[key] !== snapshot[key]);
    if (!changed) return;
    snapshot = next;
    for (const listener of listeners) listener();
  }

  async function loadNewestPage() {
    try {
      const fetchNewest = () => options.fetchEvents({ limit: pageSize });
      const page = await (options.newestPage?.catch(fetchNewest) ?? fetchNewest());
      events = mergeEvents(events, page.events);
      hasOlder = page.has_more;
    } catch {
      // Without the page the socket replays everything from the start: nothing is lost.
    }
  }

  const ready = loadNewestPage().then(() => {
    if (disposed) return;
    actor = createActor(machine, {
      input: { latestEventId: newestEventId(events), tempMessage: options.tempMessage ?? null },
    });
    actor.subscribe(publish);
    actor.start();
    for (const action of early) actor.send({ type: 'SEND', action });
    early = [];
    if (wantsConnection) actor.send({ type: 'CONNECT' });
    publish();
  });

  return {
    conversationId: options.conversationId,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    send(action) {
      if (actor) actor.send({ type: 'SEND', action });
      else early.push(action);
    },
    async loadOlder() {
      await ready;
      if (!hasOlder || loadingOlder || disposed) return false;
      loadingOlder = true;
      publish();
      try {
        const page = await options.fetchEvents({ beforeId: oldestEventId(events), limit: pageSize });
        events = mergeEvents(events, page.events);
        hasOlder = page.has_more;
        return page.events.length > 0;
      } finally {
        loadingOlder = false;
        publish();
      }
    },
    reconnect() {
      wantsConnection = true;
      actor?.send({ type: 'DISCONNECT' });
      actor?.send({ type: 'CONNECT' });
    },
    connect() {
      if (wantsConnection) return;
      wantsConnection = true;
      actor?.send({ type: 'CONNECT' });
    },
    disconnect() {
      wantsConnection = false;
      actor?.send({ type: 'DISCONNECT' });
    },
    dispose() {
      disposed = true;
      listeners.clear();
      actor?.stop();
    },
  };
}
