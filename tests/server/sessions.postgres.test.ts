import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/cli/main.ts';
import { SESSION_CACHE_TTL_MS, USER_CHANGED } from '../../server/modules/auth/index.ts';
import { PostgresEventBus } from '../../server/realtime/postgres-bus.ts';
import { startServer, type RunningServer } from '../support/server.ts';

/**
 * Each node caches sign-ins for a few seconds (server/modules/auth/session-cache.ts): logout on
 * one node, or an operator's command, must end them on every node at once, not after the cache's
 * TTL. Runs in the PostgreSQL pass only, where several nodes share one database.
 */
let a: RunningServer;
let b: RunningServer;
beforeAll(async () => {
  a = await startServer();
  b = await startServer({ database: a.database });
});
afterAll(async () => {
  await b?.destroy();
  await a?.destroy();
});

const post = (node: RunningServer, url: string, body: unknown, token?: string) =>
  fetch(`${node.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
const me = (node: RunningServer, token: string) =>
  fetch(`${node.url}/api/auth/me/extended`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

async function signIn(email: string) {
  expect((await post(a, '/api/auth/register', { name: 'Node', email, password: 'long enough' })).status).toBe(200);
  const login = (await (await post(a, '/api/auth/login', { email, password: 'long enough' })).json()) as {
    access_token: string;
  };
  return login.access_token;
}

/** Milliseconds until `probe` answers 401, polled every 20 ms for at most the cache's TTL. */
async function msUntilRefused(probe: () => Promise<number>) {
  const started = Date.now();
  while (Date.now() - started < SESSION_CACHE_TTL_MS) {
    if ((await probe()) === 401) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Infinity;
}

describe('sign-ins cached on two nodes', () => {
  it('ends a session on the other node as soon as it logs out, not after the cache’s TTL', async () => {
    const token = await signIn('two-nodes@acme.example');
    // Both nodes have the sign-in cached now.
    expect(await me(a, token)).toBe(200);
    expect(await me(b, token)).toBe(200);

    expect((await post(a, '/api/auth/logout', {}, token)).status).toBe(200);
    expect(await me(a, token)).toBe(401);
    // The notice travels over LISTEN/NOTIFY: well under the TTL the cache would otherwise need.
    expect(await msUntilRefused(() => me(b, token))).toBeLessThan(SESSION_CACHE_TTL_MS / 2);
  });

  it('refuses a revoked API key on the other node as soon as it is revoked', async () => {
    const token = await signIn('two-nodes-key@acme.example');
    // API keys are for accounts past registration onboarding (the edge's inactive gate).
    expect((await a.admin('activate-user', 'two-nodes-key@acme.example')).code).toBe(0);
    const creation = await post(a, '/api/keys', { name: 'script' }, token);
    expect(creation.status).toBe(201);
    const created = (await creation.json()) as {
      id: string;
      key: string;
    };
    expect(await me(a, created.key)).toBe(200);
    expect(await me(b, created.key)).toBe(200);

    const revoked = await fetch(`${a.url}/api/keys/${created.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBe(200);
    expect(await me(a, created.key)).toBe(401);
    expect(await msUntilRefused(() => me(b, created.key))).toBeLessThan(SESSION_CACHE_TTL_MS / 2);
    // The user's own sign-in goes on working on both nodes.
    expect(await me(b, token)).toBe(200);
  });

  it('tells every node when the operator activates or deactivates an account', async () => {
    await signIn('operated@acme.example');
    const listener = new PostgresEventBus(a.database.databaseUrl ?? '', { warn: () => undefined });
    const heard: string[] = [];
    listener.onAnnouncement(USER_CHANGED, (userId) => heard.push(userId));
    await listener.start();
    try {
      process.env.DATA_DIR = a.database.dataDir;
      process.env.DATABASE_URL = a.database.databaseUrl ?? '';
      const lines: string[] = [];
      expect(await runAdmin(['deactivate-user', 'operated@acme.example'], (line) => lines.push(line))).toBe(0);
      expect(lines).toEqual(['operated@acme.example: inactive']);
      const started = Date.now();
      while (heard.length === 0 && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 20));
      expect(heard).toHaveLength(1);
      expect(heard[0]).toMatch(/^[0-9a-f-]{20,}$/);
    } finally {
      await listener.close();
    }
  });
});
