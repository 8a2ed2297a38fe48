import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { listOperations } from '../../server/http/openapi.ts';
import { withTestApp } from '../support/app.ts';
import { listen, signUp } from '../support/conversations.ts';

// Bodies built to cost the server: a sign-in body of 10 MB with 700,000 keys, the same sent
// signed in, and JSON nested 10,000 deep. Each is refused with a 4xx {"detail"}, quickly, and
// the server keeps answering /health meanwhile.

const t = withTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000000', AUTH_RATE_LIMIT_PER_EMAIL: '1000000' });
let baseUrl: string;
let token: string;

beforeAll(async () => {
  baseUrl = await listen(t.app);
  ({ token } = await signUp(t.app, t.db, 'heavy@acme.example'));
});

/** A JSON object of `keys` short keys (~14 bytes each). */
const manyKeys = (keys: number) =>
  `{"email":"a@acme.example","password":"x",${Array.from({ length: keys }, (_, i) => `"k${i}":0`).join(',')}}`;

/** Sends `body` to `path` while asking /health every 50 ms; answers the response and /health's slowest wait. */
async function whileSending(path: string, body: string, headers: Record<string, string> = {}) {
  let slowest = 0;
  let sending = true;
  const probing = (async () => {
    while (sending) {
      const started = performance.now();
      expect((await fetch(`${baseUrl}/health`)).status).toBe(200);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const answer = { status: response.status, body: (await response.json()) as { detail: unknown } };
  sending = false;
  await probing;
  return { ...answer, slowest };
}

describe('oversized and overnested bodies', () => {
  it('refuse a 10 MB sign-in body at its small limit, without holding up the server', async () => {
    const body = manyKeys(820_000);
    expect(body.length).toBeGreaterThan(9_000_000);
    const { status, body: answer, slowest } = await whileSending('/api/auth/login', body);
    expect(status).toBe(413);
    expect(answer.detail).toMatch(/too large/i);
    expect(slowest).toBeLessThan(500);
  });

  it('tell a signed-in body of 700,000 unknown fields what is wrong in a short answer', async () => {
    const {
      status,
      body: answer,
      slowest,
    } = await whileSending('/api/secrets', manyKeys(700_000), {
      authorization: `Bearer ${token}`,
    });
    expect(status).toBe(422);
    expect(Array.isArray(answer.detail) && answer.detail.length).toBe(20);
    expect(slowest).toBeLessThan(500);
  });

  it('take an anonymous onboarding chat’s five 9.9 MB uploads without holding up the server', async () => {
    const chat = (await (await fetch(`${baseUrl}/api/onboarding-chat`, { method: 'POST' })).json()) as {
      chat_id: string;
      chat_token: string;
    };
    let slowest = 0;
    let uploading = true;
    const probing = (async () => {
      while (uploading) {
        const started = performance.now();
        await fetch(`${baseUrl}/health`);
        slowest = Math.max(slowest, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    for (let i = 0; i < 5; i++) {
      const head = `--b\r\nContent-Disposition: form-data; name="files"; filename="part-${i}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      const body = Buffer.concat([Buffer.from(head), randomBytes(9_900_000), Buffer.from('\r\n--b--\r\n')]);
      const response = await fetch(`${baseUrl}/api/onboarding-chat/${chat.chat_id}/files`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=b', 'x-chat-token': chat.chat_token },
        body,
      });
      expect(response.status).toBe(200);
    }
    uploading = false;
    await probing;
    expect(slowest).toBeLessThan(500);
  });

  it('refuse JSON nested 10,000 deep on every JSON operation with a 4xx {"detail"}', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const deepObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const failures: string[] = [];
    for (const op of listOperations().filter((each) => each.request.bodyType === 'application/json'))
      for (const payload of [deep, deepObject]) {
        const response = await t.app.http.inject({
          method: op.method as 'POST',
          url: op.path.replace(/\{[^}]+\}/g, 'X'),
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload,
        });
        const detail = (JSON.parse(response.body) as { detail?: unknown }).detail;
        if (response.statusCode < 400 || response.statusCode >= 500 || detail === undefined)
          failures.push(`${op.operationId}: ${response.statusCode} ${response.body.slice(0, 120)}`);
      }
    expect(failures).toEqual([]);
  });
});
