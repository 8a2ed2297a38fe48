import { beforeAll, describe, expect, it } from 'vitest';
import { listOperations, type Operation } from '../../server/http/openapi.ts';
import { findUserId } from '../../server/modules/auth/index.ts';
import { grantCredit } from '../../server/modules/credits/index.ts';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, signUp } from '../support/conversations.ts';
import type { Conversation } from '../../openapi/types.ts';
import { sample } from './sample.ts';

// Every operation of the contract, called with invalid input generated from its own schemas:
// broken path parameters, hostile query values, and JSON bodies with each field of the wrong
// type, NUL, half a surrogate pair, far too long, a number past any range, or missing. None
// may answer 5xx, any error must be {"detail": …}, none may take 5 s, and afterwards the same
// user must still be able to work. Operations added to the contract are fuzzed without a change here.

const t = withTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000000', AUTH_RATE_LIMIT_PER_EMAIL: '1000000' });
let owner: { token: string; id: string };
let conversation: Conversation;

beforeAll(async () => {
  owner = await signUp(t.app, t.db, 'fuzz@acme.example');
  const userId = (await findUserId(t.db, 'fuzz@acme.example')) as string;
  await grantCredit(t.db, {
    userId,
    amountMicros: 5_000_000n,
    type: 'credit',
    kind: 'paid',
    expiresAt: null,
    description: 'fuzz',
    idempotencyKey: 'fuzz',
  });
  conversation = await createRunning(t.app, owner.token, { initial_user_msg: 'hi' });
  // Saved before the fuzzing, so the last test checks they survive it (not that a fuzzed call saved them).
  const saved = await call(t.app, 'POST', '/api/settings', { token: owner.token, body: { language: 'en' } });
  if (saved.status !== 200) throw new Error(`settings not saved: ${saved.status} ${JSON.stringify(saved.body)}`);
});

/** A fixed-seed generator (mulberry32), so every run sends the same requests. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

type Schema = Record<string, unknown>;
interface Case {
  what: string;
  url: string;
  payload?: string;
  contentType?: string;
}

const GARBAGE_PATH = ['%00', 'a%00b', '%ZZ', 'x'.repeat(300), '..%2F..%2Fetc', '%F0%9F'];
const HOSTILE_TEXT = ['a\u0000b', 'half \ud800 pair', 'x'.repeat(70_000), '', ' '];
const HOSTILE_QUERY = ['%00', '1e400', '99999999999999999999', '-1', 'x'.repeat(5_000), '%ZZ', '[]'];
/** Raw JSON for values JSON.stringify cannot write (1e400) and for the usual wrong types. */
const HOSTILE_JSON = [
  '1e400',
  '-1e400',
  '99999999999999999999',
  '"\\ud800"',
  'null',
  '[]',
  '{}',
  'true',
  '"a\\u0000b"',
];

/** The owner's own values for path parameters, so the call reaches the handler. */
function validPathValue(name: string): string {
  if (name === 'conversation_id') return conversation.conversation_id;
  return 'X';
}

function urlOf(op: Operation, params: Record<string, string>, query = ''): string {
  return op.path.replace(/\{([^}]+)\}/g, (_all, name: string) => params[name] ?? validPathValue(name)) + query;
}

const propertiesOf = (schema: Schema | undefined): [string, Schema][] => {
  const target = (schema?.anyOf as Schema[] | undefined)?.find((s) => s.type === 'object') ?? schema;
  return Object.entries((target?.properties ?? {}) as Record<string, Schema>);
};

/** A bounded set of invalid requests for one operation, chosen with the seed. */
function casesOf(op: Operation, pick: () => number): Case[] {
  const cases: Case[] = [];
  const choose = <T>(list: readonly T[], count: number) =>
    [...list].sort(() => pick() - 0.5).slice(0, Math.min(count, list.length));
  const body = sample(op.request.body) as Record<string, unknown> | undefined;
  const bodyText = body === undefined ? undefined : JSON.stringify(body);

  for (const name of Object.keys((op.request.params?.properties ?? {}) as Schema)) {
    for (const value of choose(GARBAGE_PATH, 3))
      cases.push({ what: `path ${name}=${value.slice(0, 12)}`, url: urlOf(op, { [name]: value }), payload: bodyText });
  }
  for (const [name] of propertiesOf(op.request.querystring)) {
    for (const value of choose(HOSTILE_QUERY, 3))
      cases.push({
        what: `query ${name}=${value.slice(0, 12)}`,
        url: urlOf(op, {}, `?${name}=${value}`),
        payload: bodyText,
      });
  }
  if (op.request.bodyType === 'application/json' && body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [name] of choose(propertiesOf(op.request.body), 6)) {
      for (const value of choose(HOSTILE_JSON, 2)) {
        const others = Object.entries(body).filter(([key]) => key !== name);
        const text = `{${[...others.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`), `${JSON.stringify(name)}:${value}`].join(',')}}`;
        cases.push({ what: `body ${name}=${value.slice(0, 12)}`, url: urlOf(op, {}), payload: text });
      }
      for (const value of choose(HOSTILE_TEXT, 1))
        cases.push({
          what: `body ${name}=text(${value.length})`,
          url: urlOf(op, {}),
          payload: JSON.stringify({ ...body, [name]: value }),
        });
    }
    cases.push({ what: 'body not JSON', url: urlOf(op, {}), payload: '{"a":' });
    cases.push({ what: 'body an array', url: urlOf(op, {}), payload: '[]' });
  }
  if (op.request.bodyType === 'multipart/form-data') {
    for (const [what, payload, contentType] of [
      ['multipart without a boundary', 'garbage', 'multipart/form-data'],
      [
        'multipart cut short',
        '--b\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nAB',
        'multipart/form-data; boundary=b',
      ],
      ['multipart garbage', '--b\r\n\u0000\u0001\u0002\r\n--b--', 'multipart/form-data; boundary=b'],
    ] as const)
      cases.push({ what, url: urlOf(op, {}), payload, contentType });
  }
  return cases;
}

const operations = listOperations();

describe('fuzzing every operation of the contract', () => {
  it('answers every generated invalid request with a 4xx {"detail"} (or its documented success), in under 5 s', async () => {
    const pick = random(20261124);
    const failures: string[] = [];
    let sent = 0;
    for (const op of operations) {
      for (const item of casesOf(op, pick)) {
        const started = performance.now();
        const response = await t.app.http.inject({
          method: op.method as 'GET',
          url: item.url,
          headers: {
            authorization: `Bearer ${owner.token}`,
            ...(item.payload !== undefined && { 'content-type': item.contentType ?? 'application/json' }),
          },
          ...(item.payload !== undefined && { payload: item.payload }),
        });
        sent += 1;
        const took = performance.now() - started;
        const where = `${op.operationId} (${item.what}): ${response.statusCode}`;
        if (response.statusCode >= 500 && response.statusCode !== 501)
          failures.push(`${where} ${response.body.slice(0, 160)}`);
        if (response.statusCode >= 400) {
          let detail: unknown;
          try {
            detail = (JSON.parse(response.body) as { detail?: unknown }).detail;
          } catch {
            detail = undefined;
          }
          if (detail === undefined) failures.push(`${where} without "detail": ${response.body.slice(0, 160)}`);
        }
        if (took > 5_000) failures.push(`${where} took ${Math.round(took)} ms`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(operations.length);
  }, 300_000);

  it('leaves the user able to work: settings, secrets and a new conversation that starts', async () => {
    expect((await call(t.app, 'GET', '/api/settings', { token: owner.token })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/secrets', { token: owner.token })).status).toBe(200);
    await call(t.app, 'POST', `/api/conversations/${conversation.conversation_id}/stop`, { token: owner.token });
    const fresh = await createRunning(t.app, owner.token, { initial_user_msg: 'still here' });
    expect(fresh.status).toBe('RUNNING');
    await call(t.app, 'POST', `/api/conversations/${fresh.conversation_id}/stop`, { token: owner.token });
  });
});
