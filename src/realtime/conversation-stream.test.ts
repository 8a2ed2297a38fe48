import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { createConversationStream, type LiveConversationStream } from './conversation-stream.ts';
import type { ClientAction, Event } from '../../openapi/types.ts';

// A real WebSocket server on 127.0.0.1 speaking the /socket protocol over an in-memory event log:
// it replays every event after latest_event_id, then streams new ones, and records what clients send.

const event = (id: number): Event => ({
  id,
  source: 'agent',
  timestamp: '2026-01-01T00:00:00Z',
  message: `event ${id}`,
});

interface FakeServer {
  url: string;
  log: Event[];
  sockets: Set<ServerSocket>;
  received: ClientAction[];
  queries: URLSearchParams[];
  /** Appends an event and sends it to every open socket. */
  append(id: number): void;
  /** Closes every socket without a reason (a dropped connection). */
  drop(): void;
  close(): Promise<void>;
}

async function startFakeServer(
  initial: Event[],
  onConnect?: (socket: ServerSocket) => boolean,
  port = 0,
): Promise<FakeServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const address = wss.address();
  const server: FakeServer = {
    url: `ws://127.0.0.1:${address !== null && typeof address === 'object' ? address.port : port}/socket`,
    log: [...initial],
    sockets: new Set(),
    received: [],
    queries: [],
    append(id) {
      const added = event(id);
      server.log.push(added);
      for (const socket of server.sockets) socket.send(JSON.stringify({ type: 'oh_event', data: added }));
    },
    drop() {
      for (const socket of server.sockets) socket.terminate();
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of wss.clients) socket.terminate();
        wss.close(() => resolve());
      }),
  };
  wss.on('connection', (socket, request) => {
    const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
    server.queries.push(query);
    if (onConnect && !onConnect(socket)) return;
    const latest = Number(query.get('latest_event_id') ?? '-1');
    for (const known of server.log.filter((entry) => entry.id > latest))
      socket.send(JSON.stringify({ type: 'oh_event', data: known }));
    server.sockets.add(socket);
    socket.on('close', () => server.sockets.delete(socket));
    socket.on('message', (data) => server.received.push((JSON.parse(String(data)) as { data: ClientAction }).data));
  });
  return server;
}

/** GET /events over the fake log: newest first, before `beforeId`. */
const historyOf =
  (server: FakeServer) =>
  ({ beforeId, limit }: { beforeId?: number; limit: number }) => {
    const older = server.log.filter((entry) => beforeId === undefined || entry.id < beforeId).reverse();
    return Promise.resolve({ events: older.slice(0, limit), has_more: older.length > limit });
  };

async function until(condition: () => boolean, timeout = 8_000) {
  const deadline = Date.now() + timeout;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const ids = (stream: LiveConversationStream) => stream.getSnapshot().events.map((entry) => entry.id);
const message = (content: string): ClientAction => ({
  action: 'message',
  args: { content, image_urls: [], file_urls: [] },
});

describe('createConversationStream', () => {
  let server: FakeServer;
  let stream: LiveConversationStream;
  const cleared: string[] = [];
  const toasts: string[] = [];
  let reloads = 0;

  const open = (overrides: Partial<Parameters<typeof createConversationStream>[0]> = {}) => {
    stream = createConversationStream({
      conversationId: 'c1',
      socketUrl: server.url,
      credentials: () => ({ auth_token: 'token-1' }),
      fetchEvents: historyOf(server),
      clearTempMessage: () => cleared.push('temp'),
      describe: (notice) => (notice.kind === 'server' ? notice.text : notice.message),
      announceError: (text) => toasts.push(text),
      reloadPage: () => (reloads += 1),
      WebSocket,
      pageSize: 3,
      ...overrides,
    });
    return stream;
  };

  beforeEach(() => {
    cleared.length = 0;
    toasts.length = 0;
    reloads = 0;
  });

  afterEach(async () => {
    stream.dispose();
    await server.close();
  });

  it('loads the newest page, streams from the newest id and pages older history without a gap', async () => {
    server = await startFakeServer([1, 2, 3, 4, 5, 6, 7].map(event));
    open().connect();
    await until(() => stream.getSnapshot().connection === 'CONNECTED');
    expect(server.queries[0]?.get('latest_event_id')).toBe('7');
    expect(server.queries[0]?.get('auth_token')).toBe('token-1');
    expect(server.queries[0]?.get('conversation_id')).toBe('c1');
    expect(ids(stream)).toEqual([5, 6, 7]);
    expect(stream.getSnapshot().hasOlder).toBe(true);

    server.append(8);
    await until(() => ids(stream).includes(8));
    expect(await stream.loadOlder()).toBe(true);
    expect(await stream.loadOlder()).toBe(true);
    expect(stream.getSnapshot().hasOlder).toBe(false);
    expect(await stream.loadOlder()).toBe(false);
    expect(ids(stream)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('starts from a newest page asked for before it existed, and asks again when that one failed', async () => {
    server = await startFakeServer([1, 2, 3, 4, 5, 6, 7].map(event));
    const asked: (number | undefined)[] = [];
    const history = historyOf(server);
    const fetchEvents = (query: { beforeId?: number; limit: number }) => {
      asked.push(query.beforeId);
      return history(query);
    };
    // Asked for early, before event 7 was written: the socket brings 7 after it.
    open({
      fetchEvents,
      newestPage: Promise.resolve({ events: [event(6), event(5), event(4)], has_more: true }),
    }).connect();
    await until(() => ids(stream).join() === '4,5,6,7');
    expect(server.queries[0]?.get('latest_event_id')).toBe('6');
    expect(asked).toEqual([]);
    expect(await stream.loadOlder()).toBe(true);
    expect(ids(stream)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(asked).toEqual([4]);
    stream.dispose();

    asked.length = 0;
    open({ fetchEvents, newestPage: Promise.reject(new Error('offline')) }).connect();
    await until(() => stream.getSnapshot().connection === 'CONNECTED');
    expect(asked).toEqual([undefined]);
    expect(ids(stream)).toEqual([5, 6, 7]);
  });

  it('resumes after the last event on reconnect: nothing missed, nothing twice', async () => {
    server = await startFakeServer([1, 2].map(event));
    open().connect();
    await until(() => stream.getSnapshot().connection === 'CONNECTED');
    server.append(3);
    await until(() => ids(stream).includes(3));

    server.drop();
    await until(() => stream.getSnapshot().connection !== 'CONNECTED');
    // Written while the client is away: the replay brings it.
    server.log.push(event(4));
    await until(() => stream.getSnapshot().connection === 'CONNECTED');
    expect(server.queries.at(-1)?.get('latest_event_id')).toBe('3');
    server.append(5);
    await until(() => ids(stream).includes(5));
    expect(ids(stream)).toEqual([1, 2, 3, 4, 5]);
    // A quiet drop shows nothing.
    expect(toasts).toEqual([]);
  });

  it('queues actions while disconnected and sends the temp message first, once', async () => {
    server = await startFakeServer([]);
    open({ tempMessage: 'Build a todo app' });
    stream.send(message('second'));
    stream.connect();
    await until(() => server.received.length === 2);
    expect(
      server.received.map((action) => (action.action === 'message' ? action.args.content : action.action)),
    ).toEqual(['Build a todo app', 'second']);
    expect(cleared).toEqual(['temp']);
    stream.send(message('third'));
    await until(() => server.received.length === 3);
  });

  it('shows an error frame and reloads 2 s after a 401 one', async () => {
    server = await startFakeServer([], (socket) => {
      socket.send(JSON.stringify({ error: true, message: 'Runtime is busy' }));
      socket.send(JSON.stringify({ error: true, message: 'Session expired.', error_code: 401 }));
      return false;
    });
    open().connect();
    await until(() => stream.getSnapshot().connectionMessage === 'sessionExpired');
    expect(toasts).toEqual(['Runtime is busy']);
    expect(reloads).toBe(0);
    await until(() => reloads === 1, 4_000);
  });

  it('hands a pushed balance over and keeps it out of the events', async () => {
    server = await startFakeServer([event(1)], (socket) => {
      socket.send(JSON.stringify({ type: 'balance', data: { balance: 8.5 } }));
      return true;
    });
    const balances: number[] = [];
    open({ onBalance: (balance) => balances.push(balance) }).connect();
    await until(() => balances.length === 1 && ids(stream).length === 1);
    expect(balances).toEqual([8.5]);
    expect(ids(stream)).toEqual([1]);
  });

  it('says the connection is lost when an attempt fails, and heals once the server is back', async () => {
    server = await startFakeServer([1].map(event));
    const port = Number(new URL(server.url).port);
    await server.close();
    open().connect();
    await until(() => stream.getSnapshot().connectionMessage === 'connectionLost');
    expect(stream.getSnapshot().connection).toBe('DISCONNECTED');
    server = await startFakeServer([1, 2].map(event), undefined, port);
    await until(() => stream.getSnapshot().connection === 'CONNECTED', 10_000);
    await until(() => ids(stream).join() === '1,2');
    expect(stream.getSnapshot().connectionMessage).toBeNull();
  }, 15_000);
});
