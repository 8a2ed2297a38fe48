import { beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../server/http/openapi.ts';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, signUp } from '../support/conversations.ts';
import type { Conversation } from '../../openapi/types.ts';
import { sample } from './sample.ts';

// Every operation of the contract that names something of a user's — a conversation, a
// secret, a layout, an API key — called on Alice's by someone else: Bob with his token, nobody, a forged
// token, and Bob's conversation's session key. Each answers 401, 403 or 404, and no answer holds
// anything of Alice's. New operations are swept because the list comes from the contract.

const t = withTestApp();
let alice: { token: string; id: string };
let bob: { token: string; id: string };
let conversation: Conversation;
let bobsKey: string;
let alicesApiKey: { id: string; key: string };
const SECRET_VALUE = 'alice-secret-value-5f1e';
const TITLE = 'Alice private project';

beforeAll(async () => {
  alice = await signUp(t.app, t.db, 'alice-tenant@acme.example');
  bob = await signUp(t.app, t.db, 'bob-tenant@acme.example');
  conversation = await createRunning(t.app, alice.token, { initial_user_msg: 'secret plans' });
  await call(t.app, 'PATCH', `/api/conversations/${conversation.conversation_id}`, {
    token: alice.token,
    body: { title: TITLE },
  });
  await call(t.app, 'POST', '/api/secrets', {
    token: alice.token,
    body: { name: 'ALICE_KEY', value: SECRET_VALUE, description: 'alice only' },
  });
  await call(t.app, 'PUT', '/api/user/layouts/alice-layout', {
    token: alice.token,
    body: { layout: { global: { alice: true } } },
  });
  alicesApiKey = (await call(t.app, 'POST', '/api/keys', { token: alice.token, body: { name: 'alice-api-key' } }))
    .body as { id: string; key: string };
  bobsKey = (await createRunning(t.app, bob.token)).session_api_key as string;
});

/** Alice's things, by path parameter name. */
const aliceValues = (name: string) =>
  (
    ({
      conversation_id: conversation.conversation_id,
      name: name === 'name' ? 'ALICE_KEY' : 'X',
      event_id: '0',
      key_id: alicesApiKey.id,
    }) as Record<string, string>
  )[name] ?? 'X';

/** The operations that name one of a user's things in their path (layouts by name get their own value below). */
const operationsOnAThing = (operations: Operation[]) =>
  operations.filter((op) => /\{(conversation_id|name|key_id)\}/.test(op.path) && op.security.length > 0);

function request(op: Operation) {
  const layout = op.path.startsWith('/api/user/layouts/');
  const url = op.path.replace(/\{([^}]+)\}/g, (_all, name: string) =>
    layout && name === 'name' ? 'alice-layout' : aliceValues(name),
  );
  const query = new URLSearchParams(Object.entries((sample(op.request.querystring) ?? {}) as Record<string, string>));
  const multipart = op.request.bodyType === 'multipart/form-data';
  const body = sample(op.request.body) as Record<string, unknown> | undefined;
  return {
    method: op.method as 'GET',
    url: url + (query.size ? `?${query}` : ''),
    multipart,
    payload: multipart
      ? '--x--\r\n'
      : body && { ...body, ...('conversation_id' in body && { conversation_id: conversation.conversation_id }) },
  };
}

describe('another tenant', () => {
  it('gets 401, 403 or 404 and nothing of Alice’s from every operation on her things, whoever asks', async () => {
    const operations = operationsOnAThing(t.app.operations);
    expect(operations.length).toBeGreaterThan(20);
    const callers: [string, Record<string, string>][] = [
      ['Bob', { authorization: `Bearer ${bob.token}` }],
      ['nobody', {}],
      ['a forged token', { authorization: 'Bearer forged-token-that-was-never-issued' }],
      ["Bob's session key", { 'x-session-api-key': bobsKey }],
    ];
    const leaks: string[] = [];
    for (const op of operations) {
      const { method, url, multipart, payload } = request(op);
      for (const [who, headers] of callers) {
        const response = await t.app.http.inject({
          method,
          url,
          headers: { ...headers, ...(multipart && { 'content-type': 'multipart/form-data; boundary=x' }) },
          ...(payload !== undefined && { payload: payload as object }),
        });
        const where = `${op.operationId} by ${who}: ${response.statusCode}`;
        // Layout names are each user's own: Bob's "alice-layout" is his (the next test checks hers is untouched).
        const ownName = who === 'Bob' && op.path.startsWith('/api/user/layouts/');
        // An operation only in the contract (501) does nothing, for anyone.
        const refused = [401, 403, 404, 501].includes(response.statusCode) || (ownName && response.statusCode < 300);
        if (!refused) leaks.push(`${where} ${response.body.slice(0, 120)}`);
        for (const mark of [TITLE, SECRET_VALUE, 'alice only', 'alice-tenant@acme.example'])
          if (response.body.includes(mark)) leaks.push(`${where} shows "${mark}"`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('leaves Alice’s things as they were', async () => {
    const mine = await call(t.app, 'GET', `/api/conversations/${conversation.conversation_id}`, { token: alice.token });
    expect(mine.body).toMatchObject({ title: TITLE, status: 'RUNNING' });
    expect((await call(t.app, 'GET', '/api/secrets', { token: alice.token })).body).toMatchObject({
      custom_secrets: [{ name: 'ALICE_KEY', description: 'alice only' }],
    });
    const layouts = await call(t.app, 'GET', '/api/user/layouts', { token: alice.token });
    expect(JSON.stringify(layouts.body)).toContain('{"alice":true}');
    expect((await call(t.app, 'GET', '/api/auth/me/extended', { token: alicesApiKey.key })).status).toBe(200);
    // Bob's own lists hold nothing of hers.
    for (const url of [
      '/api/conversations?limit=100',
      '/api/secrets',
      '/api/user/layouts',
      '/api/settings',
      '/api/keys',
    ]) {
      const body = JSON.stringify((await call(t.app, 'GET', url, { token: bob.token })).body);
      const marks = [TITLE, 'ALICE_KEY', 'alice-layout', 'alice-api-key', alicesApiKey.id];
      expect({ url, leaked: marks.filter((mark) => body.includes(mark)) }).toEqual({
        url,
        leaked: [],
      });
    }
    await call(t.app, 'POST', `/api/conversations/${conversation.conversation_id}/stop`, { token: alice.token });
  });
});
