import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { Db } from '../../server/db/index.ts';
import type { App } from '../../server/http/app.ts';
import { findUserId } from '../../server/modules/auth/index.ts';
import { grantCredit } from '../../server/modules/credits/index.ts';
import { call } from './app.ts';
import { verifyByMail } from './mail.ts';
import type { Conversation, Event } from '../../openapi/types.ts';
import type { components } from '../../openapi/schema.d.ts';

/** Polls `read` until `done` holds for its value (or fails after `timeoutMs`). */
export async function waitFor<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${what}; last value: ${JSON.stringify(value)?.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Matches the event announcing that the agent entered `state`. */
export const isAgentState = (state: string) => (event: Event) =>
  event.observation === 'agent_state_changed' && event.extras?.agent_state === state;

/** A signed-in saas user, verified through the link mailed to them, onboarded (unless asked not to), with $10 of credit: enough to start conversations. */
export async function signUp(
  app: App,
  db: Db,
  email: string,
  options: { personal?: boolean; onboarded?: boolean } = {},
): Promise<{ token: string; id: string }> {
  await call(app, 'POST', '/api/auth/register', {
    body: { name: 'Test User', email, password: 'long enough', ...(options.personal && { is_personal: true }) },
    ip: email,
  });
  await verifyByMail(app, db, email);
  const login = await call(app, 'POST', '/api/auth/login', { body: { email, password: 'long enough' }, ip: email });
  const id = (await findUserId(db, email)) as string;
  const token = login.body?.access_token as string;
  if (options.onboarded !== false) await completeOnboarding(app, token);
  await giveCredit(db, id, 10_000_000n, 'tests');
  return { token, id };
}

/** Paid credit of `amountMicros` for the user, once per `idempotencyKey`, so that conversations can start in saas mode. */
export async function giveCredit(db: Db, userId: string, amountMicros: bigint, idempotencyKey: string) {
  await grantCredit(db, {
    userId,
    amountMicros,
    type: 'credit',
    kind: 'paid',
    expiresAt: null,
    description: 'tests',
    idempotencyKey,
  });
}

/** Registration onboarding as a user completes it: country, contact information, Start Free. */
export async function completeOnboarding(app: App, token: string) {
  const onboarding = (path: string, body?: unknown) =>
    call(app, 'POST', `/api/atelier/onboarding/${path}`, { token, ...(body !== undefined && { body }) });
  await onboarding('save-user-country', { country: 276 });
  await onboarding('save-contact-information', {
    organization_name: 'Acme',
    legal_name: 'Test User',
    street_address: 'Main street 1',
    city: 'Berlin',
    province: 'Berlin',
    postal_code: '10115',
  });
  const started = await onboarding('start-free');
  if (started.body?.success !== true) throw new Error(`onboarding did not finish: ${JSON.stringify(started.body)}`);
}

/** Saves a card through the payment step of registration onboarding, as the browser does. */
export async function saveCardThroughOnboarding(app: App, token: string, cardNumber: string) {
  return call(app, 'POST', '/api/atelier/onboarding/save-payment-information', {
    token,
    body: {
      contact_information_id: await saveOnboardingContact(app, token),
      card_number: cardNumber,
      expiry_date: '12/35',
      security_code: '123',
      cardholder_name: 'Ada Lovelace',
      same_billing_address: true,
    },
  });
}

/** Onboarding's contact information, which a card is saved under: answers its id. */
export async function saveOnboardingContact(app: App, token: string): Promise<string> {
  const contact = await call(app, 'POST', '/api/atelier/onboarding/save-contact-information', {
    token,
    body: {
      organization_name: 'Acme',
      legal_name: 'Ada Lovelace',
      street_address: 'Main street 1',
      city: 'Berlin',
      province: 'Berlin',
      postal_code: '10115',
    },
  });
  return (contact.body?.contact_information as { id: string }).id;
}

/** Creates a conversation and waits until it runs. */
export async function createRunning(
  app: App,
  token: string,
  body: Record<string, unknown> = {},
): Promise<Conversation> {
  const created = await call(app, 'POST', '/api/conversations', { token, body });
  if (created.status !== 200) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
  return waitRunning(app, token, created.body?.conversation_id as string);
}

export async function waitRunning(app: App, token: string, id: string): Promise<Conversation> {
  const found = await waitFor(
    () => call(app, 'GET', `/api/conversations/${id}`, { token }),
    (r) => r.body?.status === 'RUNNING' || r.body?.status === 'STOPPED',
    30_000,
    `conversation ${id} to run`,
  );
  if (found.body?.status !== 'RUNNING') {
    // The runtime's own words for why it failed are in the conversation's error status event.
    const events = await call(app, 'GET', `/api/conversations/${id}/events?limit=100`, { token });
    const errors = ((events.body?.events ?? []) as { type?: string; message?: string }[])
      .filter((event) => event.type === 'error')
      .map((event) => event.message);
    throw new Error(`conversation ${id} did not start: ${JSON.stringify(found.body)} ${JSON.stringify(errors)}`);
  }
  return found.body as unknown as Conversation;
}

/** Listens on a free port of 127.0.0.1 (for sockets and streamed uploads); returns the base URL. */
export async function listen(app: App): Promise<string> {
  if (!app.http.server.listening) await app.http.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.http.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

type Frame = { type?: 'oh_event' | 'balance'; data?: Event; error?: boolean; message?: string; error_code?: number };

/** A socket client that keeps every frame it receives. */
export class SocketClient {
  /** performance.now() when each frame arrived (for latency figures). */
  readonly arrivals: number[] = [];
  closed: { code: number; reason: string } | null = null;
  // Frames are parsed when read, not on arrival: with a thousand sockets in one process, parsing on arrival would delay the next socket's arrival time.
  private readonly received: WebSocket.RawData[] = [];
  private readonly parsed: Frame[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.arrivals.push(performance.now());
      this.received.push(data);
    });
    ws.on('close', (code, reason) => (this.closed = { code, reason: String(reason) }));
  }

  static async open(
    baseUrl: string,
    query: Record<string, string | number>,
    headers: Record<string, string> = {},
  ): Promise<SocketClient> {
    const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/socket?${params}`, { headers });
    const client = new SocketClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  get frames(): readonly Frame[] {
    for (let i = this.parsed.length; i < this.received.length; i++)
      this.parsed.push(JSON.parse(String(this.received[i])) as Frame);
    return this.parsed;
  }

  /** What a timeout reports: the frames, not the socket's internals. */
  toJSON() {
    return { closed: this.closed, frames: this.frames.length, last: this.frames.slice(-3) };
  }

  get events(): Event[] {
    return this.frames.filter((f) => f.type === 'oh_event').map((f) => f.data as Event);
  }

  /** The balances the server pushed (dollars), in order. */
  get balances(): number[] {
    return this.frames
      .filter((f) => f.type === 'balance')
      .map((f) => (f.data as unknown as components['schemas']['CreditsBalance']).balance);
  }

  send(action: Record<string, unknown>) {
    this.ws.send(JSON.stringify({ type: 'oh_user_action', data: action }));
  }

  waitFor(done: (client: SocketClient) => boolean, what = 'frames', timeoutMs = 20_000) {
    return waitFor(() => this, done, timeoutMs, what);
  }

  async close() {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const closed = new Promise((resolve) => this.ws.once('close', resolve));
    this.ws.close();
    await closed;
  }
}

/** Sends a command as the terminal tab does (the shell the agent uses); answers the `run` observation it caused. */
export async function runInTerminal(socket: SocketClient, command: string, timeoutMs = 30_000): Promise<Event> {
  const userRuns = () => socket.events.filter((e) => e.source === 'user' && e.action === 'run');
  const before = userRuns().length;
  socket.send({ action: 'run', args: { command, hidden: false } });
  const observation = () => {
    const action = userRuns()[before];
    return action && socket.events.find((e) => e.observation === 'run' && e.cause === action.id);
  };
  await socket.waitFor(() => observation() !== undefined, `the output of ${command}`, timeoutMs);
  return observation() as Event;
}

/** A conversation of `trajectory`'s events, replayed through the REST API of the server at `baseUrl` (oss: no sign-in); answers its id once it runs. */
export async function replayedConversation(baseUrl: string, trajectory: readonly object[]): Promise<string> {
  const created = await fetch(`${baseUrl}/api/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ replay_json: JSON.stringify(trajectory) }),
  });
  const { conversation_id: id } = (await created.json()) as { conversation_id: string };
  await waitFor(
    async () => (await (await fetch(`${baseUrl}/api/conversations/${id}`)).json()) as { status: string },
    (c) => c.status === 'RUNNING',
    60_000,
    'the replay',
  );
  return id;
}
