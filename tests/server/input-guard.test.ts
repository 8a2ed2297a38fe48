import { beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, signUp } from '../support/conversations.ts';
import type { Conversation } from '../../openapi/types.ts';

// Text the database cannot hold (NUL, half a surrogate pair) is refused at the edge with a 422
// that names the field, before any handler or query runs — and nothing of the request is kept.

const t = withTestApp();
let user: { token: string; id: string };
let conversation: Conversation;

beforeAll(async () => {
  user = await signUp(t.app, t.db, 'guard@acme.example');
  conversation = await createRunning(t.app, user.token, { initial_user_msg: 'hi' });
});

/** A JSON body sent as written, so a lone surrogate escape reaches the server as such. */
const raw = (method: 'POST' | 'PATCH', url: string, json: string) =>
  t.app.http.inject({
    method,
    url,
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    payload: json,
  });

describe('the edge', () => {
  it('refuses a NUL character in a JSON string with 422 naming the field', async () => {
    const login = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'guard@acme.example\u0000', password: 'x' },
    });
    expect(login.status).toBe(422);
    expect(login.body).toEqual({
      detail: [{ loc: ['body', 'email'], msg: 'email must not contain a NUL character', type: 'value_error' }],
    });
    const secret = await call(t.app, 'POST', '/api/secrets', {
      token: user.token,
      body: { name: 'API_KEY', value: 'a\u0000b', description: 'd' },
    });
    expect(secret.status).toBe(422);
    expect((await call(t.app, 'GET', '/api/secrets', { token: user.token })).body).toEqual({ custom_secrets: [] });
  });

  it('refuses a lone surrogate in a title and stores nothing of it', async () => {
    const id = conversation.conversation_id;
    const renamed = await raw('PATCH', `/api/conversations/${id}`, '{"title":"half \\ud800 a pair"}');
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json().detail[0]).toMatchObject({ loc: ['body', 'title'] });
    expect((await call(t.app, 'GET', `/api/conversations/${id}`, { token: user.token })).body?.title).toBe(
      conversation.title,
    );
    // A whole pair is text like any other.
    expect((await raw('PATCH', `/api/conversations/${id}`, '{"title":"rocket \\ud83d\\ude80"}')).statusCode).toBe(200);
  });

  it('refuses %00 in a path parameter or a query before any query runs', async () => {
    const headers = { authorization: `Bearer ${user.token}` };
    const inPath = await t.app.http.inject({ method: 'GET', url: '/api/conversations/ab%00cd/list-files', headers });
    expect(inPath.statusCode).toBe(422);
    expect(inPath.json().detail[0]).toMatchObject({ loc: ['path', 'conversation_id'] });
    const inQuery = await t.app.http.inject({
      method: 'GET',
      url: `/api/conversations/${conversation.conversation_id}/list-files?path=a%00b`,
      headers,
    });
    expect(inQuery.statusCode).toBe(422);
    expect(inQuery.json().detail[0]).toMatchObject({ loc: ['query', 'path'] });
  });

  it('bounds every integer the contract leaves open to what the database holds', async () => {
    const id = conversation.conversation_id;
    for (const url of [
      `/api/conversations/${id}/events?before_id=1e400`,
      `/api/conversations/${id}/events?before_id=99999999999999999999`,
      `/api/conversations/${id}/remember-prompt?event_id=1e400`,
    ]) {
      const answer = await call(t.app, 'GET', url, { token: user.token });
      expect({ url, status: answer.status }).toEqual({ url, status: 422 });
      expect((answer.body?.detail as { msg: string }[])[0]?.msg).toMatch(/must be <= 2147483647/);
    }
    const rating = await raw(
      'POST',
      '/feedback/conversation',
      `{"conversation_id":"${id}","event_id":1e400,"rating":3}`,
    );
    expect(rating.statusCode).toBe(422);
  });

  it('answers a broken multipart body, an over-long file name or path with a 4xx saying why', async () => {
    const id = conversation.conversation_id;
    const upload = (payload: string, contentType = 'multipart/form-data; boundary=b') =>
      t.app.http.inject({
        method: 'POST',
        url: `/api/conversations/${id}/upload-files`,
        headers: { authorization: `Bearer ${user.token}`, 'content-type': contentType },
        payload,
      });
    const noBoundary = await upload('garbage', 'multipart/form-data');
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().detail).toMatch(/^The upload is not a valid multipart\/form-data body/);
    const cut = await upload('--b\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nAB');
    expect(cut.statusCode).toBe(400);
    const longName = `${'n'.repeat(300)}.txt`;
    const named = await upload(
      `--b\r\nContent-Disposition: form-data; name="files"; filename="${longName}"\r\n\r\nAB\r\n--b--\r\n`,
    );
    expect(named.statusCode).toBe(200);
    expect(named.json().skipped_files).toEqual([
      { name: longName, reason: expect.stringMatching(/at most 255 bytes/) },
    ]);
    const saved = await call(t.app, 'POST', `/api/conversations/${id}/save-file`, {
      token: user.token,
      body: { path: `${'a/'.repeat(2040)}x.txt`, content: 'x' },
    });
    expect(saved).toMatchObject({ status: 400, body: { detail: expect.stringMatching(/The path is too long/) } });
  });

  it('answers the router’s own refusals in the API’s error shape', async () => {
    const headers = { authorization: `Bearer ${user.token}` };
    const badEscape = await t.app.http.inject({ method: 'GET', url: '/api/conversations/%ZZ', headers });
    expect(badEscape.statusCode).toBe(400);
    expect(Object.keys(badEscape.json())).toEqual(['detail']);
    const longParam = await t.app.http.inject({
      method: 'DELETE',
      url: `/api/conversations/${'a'.repeat(120)}`,
      headers,
    });
    expect(longParam.statusCode).toBeGreaterThanOrEqual(400);
    expect(longParam.statusCode).toBeLessThan(500);
    expect(Object.keys(longParam.json())).toEqual(['detail']);
  });
});
