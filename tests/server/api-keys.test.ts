import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../server/db/schema.ts';
import { call, withTestApp } from '../support/app.ts';
import { listen, signUp, SocketClient } from '../support/conversations.ts';

const t = withTestApp();
let user: { token: string; id: string };
let other: { token: string; id: string };

beforeAll(async () => {
  user = await signUp(t.app, t.db, 'keys@acme.example');
  other = await signUp(t.app, t.db, 'other-keys@acme.example');
});

const create = (token: string, name: string) => call(t.app, 'POST', '/api/keys', { token, body: { name } });

describe('API keys', () => {
  it('shows a new key once, lists it without the key, and keeps only its hash', async () => {
    const created = await create(user.token, '  CI deploys ');
    expect(created.status).toBe(201);
    const { key, ...listed } = created.body as { key: string; id: string; prefix: string };
    expect(key).toMatch(/^atl_[A-Za-z0-9_-]{43}$/);
    expect(listed).toEqual({
      id: expect.any(String),
      name: 'CI deploys',
      prefix: key.slice(0, 12),
      created_at: expect.any(String),
      last_used_at: null,
    });
    const list = await call(t.app, 'GET', '/api/keys', { token: user.token });
    expect(list.body).toEqual({ api_keys: [listed] });
    expect(JSON.stringify(list.body)).not.toContain(key.slice(12));

    const rows = await t.db.select().from(apiKeys).where(eq(apiKeys.id, listed.id));
    expect(rows[0]?.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    const everything = JSON.stringify((await t.db.execute(sql`select * from api_keys`)) as unknown);
    expect(everything).not.toContain(key.slice(4));
  });

  it('works as a bearer token for the REST API and the socket, notes its use, and stops at once when revoked', async () => {
    const { body } = await create(user.token, 'script');
    const { key, id } = body as { key: string; id: string };
    const me = await call(t.app, 'GET', '/api/auth/me/extended', { token: key });
    expect(me.status).toBe(200);
    expect(me.body?.email).toBe('keys@acme.example');
    // Keys do not manage keys: the signed-in session sees the use.
    const used = (await call(t.app, 'GET', '/api/keys', { token: user.token })).body?.api_keys as {
      id: string;
      last_used_at: string | null;
    }[];
    expect(used.find((k) => k.id === id)?.last_used_at).toEqual(expect.any(String));

    const conversation = await call(t.app, 'POST', '/api/conversations', { token: key, body: {} });
    expect(conversation.status).toBe(200);
    const conversationId = conversation.body?.conversation_id as string;
    await call(t.app, 'POST', `/api/conversations/${conversationId}/stop`, { token: key });
    const baseUrl = await listen(t.app);
    const socket = await SocketClient.open(baseUrl, {
      conversation_id: conversationId,
      latest_event_id: -1,
      auth_token: key,
    });
    await socket.waitFor((s) => s.events.length > 0, 'the history over the key');
    await socket.close();

    expect((await call(t.app, 'DELETE', `/api/keys/${id}`, { token: user.token })).status).toBe(200);
    // Straight after: the cache of signed-in tokens forgot it.
    expect((await call(t.app, 'GET', '/api/auth/me/extended', { token: key })).status).toBe(401);
    const refused = await SocketClient.open(baseUrl, { conversation_id: conversationId, auth_token: key });
    await refused.waitFor((s) => s.closed !== null);
    expect(refused.closed?.code).toBe(4401);
    expect(
      ((await call(t.app, 'GET', '/api/keys', { token: user.token })).body?.api_keys as { id: string }[]).map(
        (k) => k.id,
      ),
    ).not.toContain(id);
    expect((await call(t.app, 'DELETE', `/api/keys/${id}`, { token: user.token })).status).toBe(404);
  });

  it('keeps each user’s keys their own', async () => {
    const { body } = await create(user.token, 'mine');
    const id = (body as { id: string }).id;
    expect((await call(t.app, 'GET', '/api/keys', { token: other.token })).body).toEqual({ api_keys: [] });
    const foreign = await call(t.app, 'DELETE', `/api/keys/${id}`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: 'API key not found' });
    expect((await call(t.app, 'GET', '/api/keys')).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/keys', { body: { name: 'x' } })).status).toBe(401);
  });

  it('refuses an empty, over-long or unstorable name, and a malformed id, with the field named', async () => {
    for (const name of ['', '   ', 'x'.repeat(101), 'nul\u0000name']) {
      const refused = await create(user.token, name);
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body?.detail)).toContain('name');
    }
    const malformed = await call(t.app, 'DELETE', '/api/keys/not-a-uuid', { token: user.token });
    expect(malformed.status).toBe(422);
    expect(malformed.body).toHaveProperty('detail');
  });

  it('stands for its user as they are now: a deactivation shows at once, as with a session', async () => {
    const { body } = await create(other.token, 'follows the account');
    const key = (body as { key: string }).key;
    const active = async (value: boolean) => {
      await t.db.execute(sql`update users set is_active = ${value} where id = ${other.id}`);
      await t.app.modules.auth.userChanged(other.id);
      return (await call(t.app, 'GET', '/api/auth/me/extended', { token: key })).body?.is_active;
    };
    expect(await active(true)).toBe(true);
    expect(await active(false)).toBe(false);
  });
});

describe('API keys in oss mode', () => {
  const oss = withTestApp({ APP_MODE: 'oss' });
  it('do not exist: every operation answers 404', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/keys', undefined],
      ['POST', '/api/keys', { name: 'x' }],
      ['DELETE', '/api/keys/00000000-0000-4000-8000-000000000000', undefined],
    ] as const) {
      const answer = await call(oss.app, method, url, { body });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ detail: 'API keys exist on the hosted service only' });
    }
  });
});
