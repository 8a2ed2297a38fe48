import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, listen, signUp, SocketClient, waitFor } from '../support/conversations.ts';

// Sockets as an abuser opens them: more than a user or an address may hold, and hundreds that
// never read while a long conversation is sent to them. The first are refused with a frame the
// client shows; the others cost the server a bounded amount of memory, and /health stays quick.

const t = withTestApp({ SOCKETS_PER_USER: '4', SOCKETS_PER_ADDRESS: '40' });
let baseUrl: string;
let owner: { token: string; id: string };
let conversationId: string;
const opened: SocketClient[] = [];

/** An agent's message of 100 KB, 150 of them: 15 MB to send to every socket that opens the conversation. */
const trajectory = Array.from({ length: 150 }, (_, id) => ({
  id,
  timestamp: '2026-01-01T00:00:00Z',
  source: 'agent',
  action: 'message',
  args: { content: `${id} ${'x'.repeat(100_000)}` },
}));

beforeAll(async () => {
  baseUrl = await listen(t.app);
  owner = await signUp(t.app, t.db, 'abuse@acme.example');
  const created = await call(t.app, 'POST', '/api/conversations', {
    token: owner.token,
    body: { replay_json: JSON.stringify(trajectory) },
  });
  conversationId = created.body?.conversation_id as string;
  await waitFor(
    async () => (await call(t.app, 'GET', `/api/conversations/${conversationId}`, { token: owner.token })).body,
    (conversation) => conversation?.status === 'RUNNING',
    60_000,
    'the replay',
  );
  await call(t.app, 'POST', `/api/conversations/${conversationId}/stop`, { token: owner.token });
}, 120_000);

afterAll(async () => {
  await Promise.all(opened.map((socket) => socket.close()));
});

const open = async (token: string, conversation = conversationId, latest = 1_000_000) => {
  const socket = await SocketClient.open(
    baseUrl,
    { conversation_id: conversation, latest_event_id: latest },
    { authorization: `Bearer ${token}` },
  );
  opened.push(socket);
  return socket;
};

const refusedAsTooMany = async (socket: SocketClient) => {
  await socket.waitFor((client) => client.closed !== null, 'the refusal', 5000);
  expect(socket.closed?.code).toBe(4429);
  expect(socket.frames.at(-1)).toMatchObject({
    error: true,
    error_code: 429,
    message: expect.stringMatching(/Too many/),
  });
};

describe('sockets', () => {
  it('are refused past the limit per user, and open again once one closes', async () => {
    const small = await createRunning(t.app, owner.token);
    await call(t.app, 'POST', `/api/conversations/${small.conversation_id}/stop`, { token: owner.token });
    // A socket is counted once the server has taken it: its history arriving says so.
    const taken = async () => {
      const socket = await open(owner.token, small.conversation_id, -1);
      await socket.waitFor((client) => client.events.length > 0 || client.closed !== null, 'the history', 5000);
      return socket;
    };
    const four: SocketClient[] = [];
    for (let i = 0; i < 4; i++) four.push(await taken());
    expect(four.map((socket) => socket.closed)).toEqual([null, null, null, null]);
    await refusedAsTooMany(await open(owner.token));
    await four[0]?.close();
    // Once the server has seen the close, the place is free again.
    const again = await waitFor(taken, (socket) => socket.closed === null, 5000, 'a place again');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(again.closed).toBeNull();
    await Promise.all([...four, again].map((socket) => socket.close()));
  }, 20_000);

  it('that never read cost the server a bounded amount of memory, and /health stays quick', async () => {
    const before = process.memoryUsage().rss;
    // 30 readers that stop reading at once: without a bound, 30 × 15 MB queued in the server.
    const stalled = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const ws = new WebSocket(
          `${baseUrl.replace(/^http/, 'ws')}/socket?conversation_id=${conversationId}&latest_event_id=-1`,
          { headers: { authorization: `Bearer ${owner.token}` } },
        );
        await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
        ws.pause();
        return ws;
      }),
    ).catch((error: unknown) => {
      throw error;
    });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const started = performance.now();
    expect((await fetch(`${baseUrl}/health`)).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(500);
    const grownMb = (process.memoryUsage().rss - before) / 2 ** 20;
    expect(grownMb).toBeLessThan(150);
    for (const ws of stalled) ws.terminate();
  }, 60_000);
});
