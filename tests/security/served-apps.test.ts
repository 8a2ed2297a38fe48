import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { agentFactory } from '../../server/agent/index.ts';
import { call, withTestApp } from '../support/app.ts';
import {
  createRunning,
  isAgentState,
  listen,
  runInTerminal,
  signUp,
  SocketClient,
  waitFor,
} from '../support/conversations.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';
import { sandboxAvailable } from '../support/sandbox.ts';
import type { Event } from '../../openapi/types.ts';
import { echoAppSource } from '../support/echo-app.ts';

// A conversation's served apps are reached only through Atelier's app proxy, by the conversation's
// owner: through the link web-hosts gives (a short-lived token traded for a cookie of the port),
// WebSockets included, and from the agent's own browser. Another user, nobody, a forged token, and
// the app's port on any address but the loopback get nothing.

const llm = new FakeLlm('fake-model');
let llmUrl = '';
// Before the app's own hook, which reads its settings.
beforeAll(async () => {
  llmUrl = await llm.start();
}, 30_000);
const t = withTestApp(
  () => ({
    APP_MODE: 'saas',
    LLM_PROVIDER: 'openai-compatible',
    LLM_MODEL: 'fake-model',
    LLM_BASE_URL: llmUrl,
    LLM_API_KEY: 'fake-key',
  }),
  { agentFactory },
);

/** A web app with a WebSocket echo, in plain Node: the handshake of RFC 6455 and one small text frame at a time. */
const APP = echoAppSource(`r.end('served app; host ' + q.headers.host + '; cookie ' + (q.headers.cookie || 'none'))`);

let owner: { token: string; id: string };
let stranger: { token: string; id: string };
let conversationId: string;
let strangerConversationId: string;
let port: number;
let socket: SocketClient;

afterAll(async () => {
  await socket?.close();
  await llm.stop();
});

/** GET through the proxy as a browser would, without following redirects. */
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      })
      .on('error', reject);
  });
}

/** The owner's link to the served app, once something listens. */
async function link(token: string, id: string, host = `localhost:${port}`): Promise<string> {
  const answer = await waitFor(
    () => call(t.app, 'GET', `/api/conversations/${id}/web-hosts`, { token, headers: { host } }),
    (response) => ((response.body?.hosts as string[]) ?? []).length > 0,
    20_000,
    'the app to be served',
  );
  return (answer.body?.hosts as string[])[0] as string;
}

/** Trades the link for the proxy's cookie: answers the cookie header to send. */
async function cookieFrom(url: string): Promise<string> {
  const traded = await get(url);
  expect(traded.status).toBe(302);
  expect(traded.headers.location).toBe('/');
  const setCookie = traded.headers['set-cookie']?.[0] ?? '';
  expect(setCookie).toMatch(new RegExp(`^atelier_app_${port}=[^;]+; Path=/; HttpOnly; SameSite=Lax`));
  return setCookie.split(';')[0] as string;
}

// Skipped only on a developer machine without bubblewrap or pasta; CI always has them.
describe.skipIf(!sandboxAvailable)('served apps', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const baseUrl = await listen(t.app);
    owner = await signUp(t.app, t.db, 'owner@acme.example');
    stranger = await signUp(t.app, t.db, 'stranger@acme.example');
    conversationId = (await createRunning(t.app, owner.token)).conversation_id;
    strangerConversationId = (await createRunning(t.app, stranger.token)).conversation_id;
    await call(t.app, 'POST', `/api/conversations/${conversationId}/save-file`, {
      token: owner.token,
      body: { path: 'app.js', content: APP },
    });
    socket = await SocketClient.open(
      baseUrl,
      { conversation_id: conversationId, latest_event_id: -1 },
      { authorization: `Bearer ${owner.token}` },
    );
    port = Number((await runInTerminal(socket, '(node app.js > app.log 2>&1 &) ; echo $APP_PORT_1')).content);
  }, 120_000);

  it('opens for its owner through the link web-hosts gives, with the Host the browser asked for and none of the proxy’s cookies', async () => {
    const url = await link(owner.token, conversationId);
    expect(url).toMatch(new RegExp(`^http://localhost:${port}/\\?atelier_app_token=`));
    const cookie = await cookieFrom(url.replace('localhost', '127.0.0.1'));
    const page = await get(`http://127.0.0.1:${port}/`, {
      cookie: `${cookie}; theirs=kept`,
      host: `localhost:${port}`,
    });
    expect(page).toMatchObject({ status: 200, body: `served app; host localhost:${port}; cookie theirs=kept` });
    // The link is named for the host the browser reached Atelier by.
    expect(await link(owner.token, conversationId, `127.0.0.1:3000`)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });

  it('carries WebSockets for the owner, and refuses the upgrade to anyone else', async () => {
    const cookie = await cookieFrom((await link(owner.token, conversationId)).replace('localhost', '127.0.0.1'));
    const ws = new WebSocket(`ws://127.0.0.1:${port}/hmr`, { headers: { cookie } });
    const echoed = await new Promise<string>((resolve, reject) => {
      ws.once('open', () => ws.send('hello'));
      ws.once('message', (data) => resolve(String(data)));
      ws.once('error', reject);
    });
    ws.close();
    expect(echoed).toBe('echo hello');
    const refused = await new Promise<number>((resolve) => {
      const anonymous = new WebSocket(`ws://127.0.0.1:${port}/hmr`);
      anonymous.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      anonymous.once('open', () => resolve(101));
      anonymous.once('error', () => resolve(0));
    });
    expect(refused).toBe(401);
  });

  it('refuses nobody, another user, a forged or stale token, and a grant of another conversation', async () => {
    expect((await get(`http://127.0.0.1:${port}/`)).status).toBe(401);
    expect((await get(`http://127.0.0.1:${port}/`)).body).toContain('This app is private');
    const url = await link(owner.token, conversationId);
    const token = new URL(url).searchParams.get('atelier_app_token') as string;
    const [value = '', signature = ''] = token.split('.');
    const grant = JSON.parse(Buffer.from(value, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...grant, u: stranger.id })).toString('base64url');
    expect((await get(`http://127.0.0.1:${port}/?atelier_app_token=${forged}.${signature}`)).status).toBe(401);
    const expired = Buffer.from(JSON.stringify({ ...grant, e: Date.now() - 1 })).toString('base64url');
    expect((await get(`http://127.0.0.1:${port}/?atelier_app_token=${expired}.${signature}`)).status).toBe(401);
    // A cookie as a link, a link as a cookie: each is good for its own use only.
    expect((await get(`http://127.0.0.1:${port}/`, { cookie: `atelier_app_${port}=${token}` })).status).toBe(401);
    // The stranger serves on their own conversation's ports; their grants open nothing here.
    const theirs = await SocketClient.open(
      await listen(t.app),
      { conversation_id: strangerConversationId, latest_event_id: -1 },
      { authorization: `Bearer ${stranger.token}` },
    );
    await runInTerminal(theirs, '(python3 -m http.server "$APP_PORT_1" > /dev/null 2>&1 &)');
    const theirUrl = await link(stranger.token, strangerConversationId);
    const theirPort = Number(new URL(theirUrl).port);
    const theirCookie = await get(theirUrl.replace('localhost', '127.0.0.1')).then(
      (answer) => (answer.headers['set-cookie']?.[0] ?? '').split(';')[0] as string,
    );
    expect((await get(`http://127.0.0.1:${theirPort}/`, { cookie: theirCookie })).status).toBe(200);
    const renamed = theirCookie.replace(`atelier_app_${theirPort}=`, `atelier_app_${port}=`);
    expect((await get(`http://127.0.0.1:${port}/`, { cookie: renamed })).status).toBe(401);
    const theirToken = new URL(theirUrl).searchParams.get('atelier_app_token');
    expect((await get(`http://127.0.0.1:${port}/?atelier_app_token=${theirToken}`)).status).toBe(401);
    await theirs.close();
  });

  it('listens on no address but the loopback', async () => {
    const addresses = Object.values(os.networkInterfaces())
      .flat()
      .filter((entry) => entry && !entry.internal)
      .map((entry) => entry?.address as string);
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) {
      const reached = await new Promise<string>((resolve) => {
        const connection = net.connect({ host: address, port, timeout: 2000 }, () => resolve('open'));
        connection.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        connection.once('timeout', () => resolve('timeout'));
      });
      expect(reached, address).not.toBe('open');
    }
  });

  it('opens in the agent’s own browser', async () => {
    llm.enqueue(
      reply.text('Looking at the app', { when: withoutTools }),
      reply.toolCall(
        'browser',
        { code: `goto("http://localhost:${port}/")`, security_risk: 'LOW' },
        { when: withTools },
      ),
      reply.toolCall('finish', { message: 'Seen it.', task_completed: 'true' }, { when: withTools }),
    );
    socket.send({ action: 'message', args: { content: 'Open the app in your browser' } });
    const browsed = await socket.waitFor(
      (client) => client.events.some((event) => event.observation === 'browse'),
      'the browser observation',
      60_000,
    );
    const observation = browsed.events.find((event) => event.observation === 'browse') as Event;
    expect(observation.content).toContain(`served app; host localhost:${port}; cookie none`);
    // The run ends before the next test speaks: a message sent mid-run is read by this run's `finish`.
    await socket.waitFor((client) => client.events.some(isAgentState('FINISHED')), 'the run to finish', 60_000);
  });

  it('keeps the agent’s browser from the host’s own services', async () => {
    let hits = 0;
    const internal = http.createServer((_request, response) => {
      hits += 1;
      response.end('internal secret');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    const internalUrl = `http://127.0.0.1:${(internal.address() as net.AddressInfo).port}/`;
    llm.enqueue(
      reply.text('Looking around', { when: withoutTools }),
      reply.toolCall('browser', { code: `goto("${internalUrl}")`, security_risk: 'LOW' }, { when: withTools }),
      reply.toolCall('finish', { message: 'Done.', task_completed: 'true' }, { when: withTools }),
    );
    const before = socket.events.filter((event) => event.observation === 'browse').length;
    socket.send({ action: 'message', args: { content: 'Open the internal page' } });
    const browsed = await socket.waitFor(
      (client) => client.events.filter((event) => event.observation === 'browse').length > before,
      'the browser observation',
      60_000,
    );
    const observation = browsed.events.filter((event) => event.observation === 'browse').at(-1) as Event;
    expect(observation.content).toMatch(/127\.0\.0\.1 is not reachable from Atelier/);
    expect(observation.content).not.toContain('internal secret');
    expect(hits).toBe(0);
    await new Promise((resolve) => internal.close(resolve));
  });
});
