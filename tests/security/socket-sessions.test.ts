import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../server/db/schema.ts';
import { setUserActive } from '../../server/modules/auth/admin.ts';
import { hashToken } from '../../server/modules/auth/tokens.ts';
import { call, withTestApp } from '../support/app.ts';
import { listen, signUp, SocketClient } from '../support/conversations.ts';

// A socket is only as good as the credentials it was opened with: signing out, revoking the
// API key it used, deactivating the account or the session's expiry close it within a second,
// with the frame the client reads as "session expired". And a key cannot mint keys that would
// outlive it.

const t = withTestApp();
let baseUrl: string;
let user: { token: string; id: string };
let conversationId: string;
const opened: SocketClient[] = [];

beforeAll(async () => {
  baseUrl = await listen(t.app);
  user = await signUp(t.app, t.db, 'sockets@acme.example');
  const created = await call(t.app, 'POST', '/api/conversations', { token: user.token, body: {} });
  conversationId = created.body?.conversation_id as string;
  await call(t.app, 'POST', `/api/conversations/${conversationId}/stop`, { token: user.token });
});

afterAll(async () => {
  await Promise.all(opened.map((socket) => socket.close()));
});

const login = async () =>
  (
    await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'sockets@acme.example', password: 'long enough' },
      ip: 'sockets@acme.example',
    })
  ).body?.access_token as string;

async function openWith(token: string) {
  const socket = await SocketClient.open(
    baseUrl,
    { conversation_id: conversationId, latest_event_id: -1 },
    { authorization: `Bearer ${token}` },
  );
  opened.push(socket);
  // It works: a frame of its conversation arrives (the stop's status, at least).
  await socket.waitFor((client) => client.events.length > 0, 'the replay');
  return socket;
}

/** Waits for the server to close `socket` as expired; answers how long that took after `since`. */
async function closedAsExpired(socket: SocketClient, since: number) {
  await socket.waitFor((client) => client.closed !== null, 'the socket to close', 5000);
  expect(socket.closed?.code).toBe(4401);
  expect(socket.frames.at(-1)).toEqual({ error: true, message: 'Session expired.', error_code: 401 });
  return performance.now() - since;
}

describe('an open socket', () => {
  it('stays open while its session holds', async () => {
    const socket = await openWith(await login());
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(socket.closed).toBeNull();
  });

  it('closes within a second of signing out', async () => {
    const token = await login();
    const socket = await openWith(token);
    const started = performance.now();
    expect((await call(t.app, 'POST', '/api/auth/logout', { token })).status).toBe(200);
    expect(await closedAsExpired(socket, started)).toBeLessThan(1000);
  });

  it('closes within a second of revoking its API key', async () => {
    const created = await call(t.app, 'POST', '/api/keys', { token: user.token, body: { name: 'script' } });
    const { key, id } = created.body as { key: string; id: string };
    const socket = await openWith(key);
    const started = performance.now();
    expect((await call(t.app, 'DELETE', `/api/keys/${id}`, { token: user.token })).status).toBe(200);
    expect(await closedAsExpired(socket, started)).toBeLessThan(1000);
  });

  it('closes within a second of the account being deactivated', async () => {
    const socket = await openWith(await login());
    const started = performance.now();
    expect(await setUserActive(t.db, 'sockets@acme.example', false)).toBe(user.id);
    await t.app.modules.auth.userChanged(user.id);
    expect(await closedAsExpired(socket, started)).toBeLessThan(1000);
    await setUserActive(t.db, 'sockets@acme.example', true);
    await t.app.modules.auth.userChanged(user.id);
  });

  it('closes when its session expires', async () => {
    const token = await login();
    const socket = await openWith(token);
    // The session ends a second from now, as if it had been made 12 hours ago.
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 1000) })
      .where(eq(sessions.tokenHash, hashToken(token)));
    await t.app.modules.auth.userChanged(user.id);
    const started = performance.now();
    // Its end, then at most a second.
    expect(await closedAsExpired(socket, started)).toBeLessThan(2000);
  });
});

describe('API keys', () => {
  it('cannot list, create or revoke API keys: a leaked key mints nothing that outlives it', async () => {
    const created = await call(t.app, 'POST', '/api/keys', { token: user.token, body: { name: 'parent' } });
    const { key, id } = created.body as { key: string; id: string };
    for (const [method, url, body] of [
      ['POST', '/api/keys', { name: 'child' }],
      ['GET', '/api/keys', undefined],
      ['DELETE', `/api/keys/${id}`, undefined],
    ] as const) {
      const answer = await call(t.app, method, url, { token: key, ...(body && { body }) });
      expect([method, url, answer.status]).toEqual([method, url, 403]);
      expect(answer.body?.detail).toMatch(/sign in to manage them/);
    }
    const names = (
      (await call(t.app, 'GET', '/api/keys', { token: user.token })).body?.api_keys as { name: string }[]
    ).map((k) => k.name);
    expect(names).not.toContain('child');
  });
});
