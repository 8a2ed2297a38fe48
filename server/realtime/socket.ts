import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { WebSocket as WebSocketClient, type WebSocket } from 'ws';
import type { components } from '../../openapi/schema.d.ts';
import { contractValidator } from '../shared/contract-schemas.ts';
import type { AuthUser } from '../shared/operations.ts';
import type { Event, EventReader, EventStreams } from './streams.ts';
import { bearerToken } from '../shared/bearer-token.ts';
import type { ClientAction } from '../../openapi/types.ts';
import { openSockets } from '../shared/metrics.ts';
import { OpenCounts } from '../shared/open-counts.ts';
import type { UserTerminal } from '../runtime/user-terminals.ts';

type ClientFrame = components['schemas']['ClientFrame'];
type TerminalClientFrame = components['schemas']['TerminalClientFrame'];
type BalanceFrame = components['schemas']['BalanceFrame'];

export interface SocketDeps {
  /** The user behind a token (the local user in oss mode), or null. */
  identify(token: string | null): Promise<AuthUser | null>;
  /** The owner of the running conversation this session key belongs to, or null. */
  bySessionKey(conversationId: string, key: string): Promise<AuthUser | null>;
  /** Calls `listener` when anything changed about who a user's tokens stand for (sign-out, a revoked key, deactivation), on any node. */
  onUserChanged(listener: (userId: string) => void): void;
  /** Calls `listener` when a user's balance changed (a model call was charged), on any node. */
  onBalanceChanged(listener: (userId: string) => void): void;
  /** The user's balance in dollars. */
  balance(userId: string): Promise<number>;
  /** Whether the conversation exists and is the user's. */
  owns(user: AuthUser, conversationId: string): Promise<boolean>;
  /** Records and carries out a client action (throws an error whose message the client sees). */
  act(user: AuthUser, conversationId: string, action: ClientAction): Promise<void>;
  events: EventReader;
  streams: EventStreams;
  /** A terminal of the conversation running on this node, or null (not here, no such terminal). */
  terminal(conversationId: string, terminalId: string): UserTerminal | null;
  /** The address of the node that runs the conversation when it is another one and the socket was not passed on already, else null. */
  ownerElsewhere(conversationId: string, headers: IncomingHttpHeaders): Promise<string | null>;
  /** Marks a socket this node passes on to another. */
  passOnHeaders: Record<string, string>;
  /** Sockets one user, and one address, may have open at once. */
  limits: { perUser: number; perAddress: number };
  /** The chat-only onboarding's chats (`chat_only_mode=true`), each with its own events. */
  chats: {
    /** Whether the token (the chat's own) opens the chat. */
    opens(chatId: string, token: string): Promise<boolean>;
    /** Greets a chat opened for the first time. */
    greet(chatId: string): Promise<void>;
    act(chatId: string, action: ClientAction): Promise<void>;
    events: EventReader;
    streams: EventStreams;
  };
}

/** Where a socket's events come from and its actions go: a conversation, or an onboarding chat. */
interface Channel {
  events: EventReader;
  streams: EventStreams;
  act(action: ClientAction): Promise<void>;
  /** A conversation's: whose it is, and the same credentials asked again (null: no longer valid). */
  opener?: { user: AuthUser; bySessionKey: boolean; again(): Promise<AuthUser | null> };
}

/**
 * How often sockets opened with a user's token ask it again: an expired one closes within it
 * (plus a lookup), well inside the second its session's end allows. Sign-out, revocation and
 * deactivation close sockets at once, on their notice.
 */
const RECHECK_MS = 500;
/**
 * What a socket may hold unsent. The replay waits while more than REPLAY_PAUSE_BYTES are
 * queued (for at most REPLAY_PAUSE_MS); a socket past SEND_LIMIT_BYTES, whose client is not
 * reading, is dropped: the client reconnects from its last event, so nothing is lost, and the
 * server's memory stays bounded whatever clients do.
 */
const REPLAY_PAUSE_BYTES = 256 * 1024;
const REPLAY_PAUSE_MS = 30_000;
const SEND_LIMIT_BYTES = 4 * 1024 * 1024;
/** A terminal's output is held while its socket has this much unsent, and released below the second. */
const TERMINAL_PAUSE_BYTES = 1024 * 1024;
const TERMINAL_RESUME_BYTES = 256 * 1024;
const TOO_MANY = 'Too many open connections: close another tab of Atelier, or try again later.';

type ErrorFrame = { error: true; message: string; error_code?: number };

/** An encoded JSON frame is still a text frame. */
const TEXT = { binary: false };

/** Events read from the database per query while replaying. */
const REPLAY_PAGE = 500;

// Every socket on a conversation gets the same event object from the stream: one serialisation,
// and one UTF-8 encoding (ws would encode a string again for each socket), serve them all.
const eventFrames = new WeakMap<Event, Buffer>();
function eventFrame(event: Event): Buffer {
  let frame = eventFrames.get(event);
  if (frame === undefined) {
    frame = Buffer.from(JSON.stringify({ type: 'oh_event', data: event }));
    eventFrames.set(event, frame);
  }
  return frame;
}

/**
 * Joins `socket` to the same socket on the node at `owner`, frames passed both ways as they
 * are (the ones that arrived early first) and each end's close passed to the other.
 */
function passOn(
  socket: WebSocket,
  owner: string,
  request: FastifyRequest,
  early: string[],
  headers: Record<string, string>,
) {
  const url = new URL(request.url, owner.replace(/^http/, 'ws'));
  const upstream = new WebSocketClient(url, {
    headers: { ...headers, ...(request.headers.authorization && { authorization: request.headers.authorization }) },
  });
  const closeCode = (code: number) => (code >= 4000 || code === 1000 ? code : 1011);
  upstream.on('open', () => early.forEach((data) => upstream.send(data)));
  upstream.on('message', (data, binary) => socket.readyState === socket.OPEN && socket.send(data, { binary }));
  upstream.on('close', (code, reason) => socket.close(closeCode(code), reason));
  upstream.on('error', () => socket.close(1011, 'The server running this conversation cannot be reached'));
  socket.on('message', (data, binary) => {
    if (upstream.readyState === upstream.OPEN) upstream.send(data, { binary });
    else if (upstream.readyState === upstream.CONNECTING) early.push(String(data));
  });
  socket.on('close', () => upstream.close());
}

/** Waits until the socket has sent most of what it holds; false (and the socket dropped) when its client stopped reading. */
async function drained(socket: WebSocket): Promise<boolean> {
  const until = Date.now() + REPLAY_PAUSE_MS;
  while (socket.readyState === socket.OPEN && socket.bufferedAmount > REPLAY_PAUSE_BYTES) {
    if (Date.now() > until) {
      socket.terminate();
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return socket.readyState === socket.OPEN;
}

/**
 * The conversation event socket (ARCHITECTURE.md §5) at /socket. The caller authenticates
 * with `auth_token` in the query, a bearer header or the conversation's `session_api_key`.
 * On connect it subscribes to the live stream first, then replays every event after
 * `latest_event_id` from the database, then forwards live events: the subscription covers
 * everything committed after it started and the replay everything before, and events are
 * sent only when their id is above the last one sent, so there is no gap and no duplicate.
 */
export function registerSocket(app: FastifyInstance, deps: SocketDeps) {
  const isFrame = contractValidator<ClientFrame>('ClientFrame');
  const isTerminalFrame = contractValidator<TerminalClientFrame>('TerminalClientFrame');
  /** Each open conversation socket's check of its credentials, which closes it when they no longer hold. */
  const openers = new Map<WebSocket, { userId: string; bySessionKey: boolean; check(): Promise<void> }>();
  // A user's token answers from a cache: asking twice a second costs a lookup, and a database
  // read when the cache lets go (a sign-out on any node clears it). Session keys are asked
  // again when their user changes.
  const recheck = setInterval(() => {
    for (const opener of openers.values()) if (!opener.bySessionKey) void opener.check();
  }, RECHECK_MS).unref();
  app.addHook('onClose', async () => clearInterval(recheck));
  deps.onUserChanged((userId) => {
    for (const opener of openers.values()) if (opener.userId === userId) void opener.check();
  });
  // The user's sockets on this node are told the new balance, read once for all of them.
  deps.onBalanceChanged(async (userId) => {
    const sockets = [...openers].filter(([, opener]) => opener.userId === userId).map(([socket]) => socket);
    if (sockets.length === 0) return;
    try {
      const frame: BalanceFrame = { type: 'balance', data: { balance: await deps.balance(userId) } };
      const text = JSON.stringify(frame);
      for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(text, TEXT);
    } catch (error) {
      // The next charge sends it again; the page reads it anew on its next load.
      app.log.warn({ err: error }, 'balance not sent');
    }
  });
  const perAddress = new OpenCounts();
  const perUser = new OpenCounts();

  app.get('/socket', { websocket: true }, async (socket, request) => {
    // providers_set is accepted and unused: a conversation starts, with its providers' tokens, through
    // POST /start (the browser calls it for a stopped one). chat_only_mode opens an onboarding chat.
    // An upgraded request never completes like others: its line is written here.
    request.log.info({ req: request }, 'socket opened');
    const query = request.query as Record<string, string | undefined>;
    const send = (frame: { type: 'oh_event'; data: Event } | ErrorFrame) => {
      if ('data' in frame) socket.send(eventFrame(frame.data), TEXT);
      else socket.send(JSON.stringify(frame));
      if (socket.bufferedAmount > SEND_LIMIT_BYTES) socket.terminate();
    };
    const fail = (frame: ErrorFrame, code: number) => {
      send(frame);
      socket.close(code, frame.message);
    };
    // Frames sent before authentication finishes are kept, not lost (the client sends as soon as it is open).
    const early: string[] = [];
    const keep = (data: unknown) => early.push(String(data));
    socket.on('message', keep);

    const tooMany = () => fail({ error: true, message: TOO_MANY, error_code: 429 }, 4429);
    // Counted from the start, so a flood of sockets costs no sign-in check past the limit.
    if (!perAddress.take(request.ip, deps.limits.perAddress)) return tooMany();
    socket.on('close', () => perAddress.give(request.ip));

    const conversationId = query.conversation_id ?? '';
    const channel = await channelOf(query, request.headers.authorization);
    const expired = () => fail({ error: true, message: 'Session expired.', error_code: 401 }, 4401);
    if (channel === 'unauthenticated') return expired();
    if (channel === 'not found') return fail({ error: true, message: 'Conversation not found', error_code: 404 }, 4404);
    if (channel.opener && !followOpener(socket, channel.opener, expired)) return tooMany();

    const latest = Number.parseInt(query.latest_event_id ?? '-1', 10);
    let lastSent = Number.isFinite(latest) ? latest : -1;
    let replaying = true;
    const held: Event[] = [];
    const forward = (event: Event) => {
      if (event.id <= lastSent || socket.readyState !== socket.OPEN) return;
      lastSent = event.id;
      send({ type: 'oh_event', data: event });
    };
    const unsubscribe = await channel.streams.subscribe(conversationId, (event) =>
      replaying ? held.push(event) : forward(event),
    );
    socket.on('close', unsubscribe);
    if (socket.readyState !== socket.OPEN) return unsubscribe();
    openSockets.inc();
    socket.on('close', () => openSockets.dec());

    for (;;) {
      const page = await channel.events.after(conversationId, lastSent, REPLAY_PAGE);
      page.forEach(forward);
      if (page.length < REPLAY_PAGE || !(await drained(socket))) break;
    }
    held.forEach(forward);
    replaying = false;
    if (query.chat_only_mode === 'true') await deps.chats.greet(conversationId);

    // One action at a time, so they are recorded in the order the client sent them.
    let queue = Promise.resolve();
    const receive = (data: unknown) => {
      queue = queue.then(() => onFrame(socket, channel, String(data)));
    };
    socket.off('message', keep);
    socket.on('message', receive);
    for (const data of early) receive(data);
  });

  /**
   * Counts the socket against its user's limit and closes it (`expired`) once the credentials
   * it was opened with no longer hold; false when the user has too many open.
   */
  function followOpener(socket: WebSocket, opener: NonNullable<Channel['opener']>, expired: () => void): boolean {
    const userId = opener.user.id;
    if (!perUser.take(userId, deps.limits.perUser)) return false;
    socket.on('close', () => perUser.give(userId));
    let checking = false;
    openers.set(socket, {
      userId,
      bySessionKey: opener.bySessionKey,
      async check() {
        if (checking || socket.readyState !== socket.OPEN) return;
        checking = true;
        const now = await opener.again().catch(() => opener.user);
        checking = false;
        if (!now || now.id !== userId || !now.isActive) expired();
      },
    });
    socket.on('close', () => openers.delete(socket));
    return true;
  }

  // A user terminal (x-terminal-websocket): the same credentials as the conversation socket, on
  // the node that runs the conversation; keystrokes in, output out.
  app.get('/terminal', { websocket: true }, async (socket, request) => {
    request.log.info({ req: request }, 'terminal socket opened');
    const query = request.query as Record<string, string | undefined>;
    const fail = (message: string, code: number) => {
      const frame: ErrorFrame = { error: true, message, error_code: code - 4000 };
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
      socket.close(code, message);
    };
    const early: string[] = [];
    const keep = (data: unknown) => early.push(String(data));
    socket.on('message', keep);
    if (!perAddress.take(request.ip, deps.limits.perAddress)) return fail(TOO_MANY, 4429);
    socket.on('close', () => perAddress.give(request.ip));

    const channel = await channelOf({ ...query, chat_only_mode: undefined }, request.headers.authorization);
    const expired = () => fail('Session expired.', 4401);
    if (channel === 'unauthenticated') return expired();
    const opener = channel === 'not found' ? undefined : channel.opener;
    const conversationId = query.conversation_id ?? '';
    const terminal = opener ? deps.terminal(conversationId, query.terminal_id ?? '') : null;
    // Another node runs the conversation: this socket is passed on to it (which checks the credentials again).
    const owner = opener && !terminal ? await deps.ownerElsewhere(conversationId, request.headers) : null;
    if ((!terminal && !owner) || !opener) return fail('No such terminal', 4404);
    if (!followOpener(socket, opener, expired)) return fail(TOO_MANY, 4429);
    if (socket.readyState !== socket.OPEN) return;
    socket.off('message', keep);
    if (!terminal) return passOn(socket, owner as string, request, early, deps.passOnHeaders);

    // Output waits in the pseudo-terminal (its writers block) while this client is not reading.
    let paused = false;
    const flow = setInterval(() => {
      if (paused && socket.bufferedAmount < TERMINAL_RESUME_BYTES) {
        paused = false;
        terminal.resume();
      }
    }, 50);
    const unwatch = terminal.watch((output) => {
      if (socket.readyState !== socket.OPEN) return;
      socket.send(JSON.stringify(output));
      if (output.type === 'exit') return socket.close(1000, 'The shell ended');
      if (!paused && socket.bufferedAmount > TERMINAL_PAUSE_BYTES) {
        paused = true;
        terminal.pause();
      }
    });
    socket.on('close', () => {
      clearInterval(flow);
      unwatch();
      if (paused) terminal.resume();
    });
    const receive = (data: unknown) => {
      let frame: unknown;
      try {
        frame = JSON.parse(String(data));
      } catch {
        return fail('Frames must be JSON', 4400);
      }
      if (!isTerminalFrame.is(frame)) return fail(`Invalid frame: ${isTerminalFrame.explain()}`, 4400);
      if (frame.type === 'input') terminal.write(frame.data);
      else terminal.resize(frame);
    };
    socket.on('message', receive);
    for (const data of early) receive(data);
  });

  /** The socket's conversation or chat, once its caller may open it. */
  async function channelOf(
    query: Record<string, string | undefined>,
    authorization: string | undefined,
  ): Promise<Channel | 'unauthenticated' | 'not found'> {
    const conversationId = query.conversation_id ?? '';
    if (query.chat_only_mode === 'true') {
      // A chat-only socket opens an onboarding chat with the chat's own token.
      if (!query.auth_token) return 'unauthenticated';
      if (!conversationId || !(await deps.chats.opens(conversationId, query.auth_token))) return 'not found';
      const { chats } = deps;
      return { events: chats.events, streams: chats.streams, act: (action) => chats.act(conversationId, action) };
    }
    const bearer = bearerToken(authorization);
    const sessionKey = query.session_api_key;
    const fromKey = sessionKey && conversationId ? await deps.bySessionKey(conversationId, sessionKey) : null;
    const token = query.auth_token ?? bearer ?? null;
    const user = fromKey ?? (await deps.identify(token));
    // Spec §6: an account held on registration onboarding reaches only that.
    if (!user?.isActive) return 'unauthenticated';
    if (!conversationId || !(fromKey || (await deps.owns(user, conversationId)))) return 'not found';
    const again = fromKey ? () => deps.bySessionKey(conversationId, sessionKey as string) : () => deps.identify(token);
    return {
      events: deps.events,
      streams: deps.streams,
      act: (action) => deps.act(user, conversationId, action),
      opener: { user, bySessionKey: fromKey !== null, again },
    };
  }

  async function onFrame(socket: WebSocket, channel: Channel, text: string) {
    const reply = (message: string) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ error: true, message } satisfies ErrorFrame));
    };
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return reply('Frames must be JSON');
    }
    if (!isFrame.is(frame)) return reply(`Invalid action: ${isFrame.explain()}`);
    try {
      await channel.act(frame.data);
    } catch (error) {
      reply((error as Error).message || 'The action failed');
    }
  }
}
