import { beforeAll, describe, expect, it } from 'vitest';
import { listOperations, type Operation } from '../../server/http/openapi.ts';
import { withTestApp } from '../support/app.ts';
import { createRunning, signUp } from '../support/conversations.ts';
import type { Conversation } from '../../openapi/types.ts';
import { sample } from './sample.ts';

// A JSON body is taken as it came: every field of every operation's body, sent as a value of
// another type that a coercing validator would turn into the right one ("5" for 5, 123 for
// "123", "true" or 1 for true, a lone value for a list), is refused with 422.

const t = withTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000000', AUTH_RATE_LIMIT_PER_EMAIL: '1000000' });
let token: string;
let conversation: Conversation;

beforeAll(async () => {
  ({ token } = await signUp(t.app, t.db, 'coercion@acme.example'));
  conversation = await createRunning(t.app, token);
});

type Schema = Record<string, unknown>;

/** The one type a field has (null aside); none for unions, which a coercion cannot hit unambiguously. */
function typeOf(schema: Schema): string | null {
  if (schema.anyOf || schema.oneOf || schema.enum || 'const' in schema) return null;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => type !== 'null');
  return types.length === 1 ? (types[0] as string) : null;
}

/** Values a coercing validator would accept for a field of `type` whose valid value is `valid`. */
function coercible(type: string, valid: unknown): unknown[] {
  switch (type) {
    case 'string':
      return [123];
    case 'number':
    case 'integer':
      return [String(valid)];
    case 'boolean':
      return ['true', 1];
    case 'array':
      return ['not-an-array'];
    default:
      return [];
  }
}

const jsonBodies = listOperations().filter(
  (op: Operation) => op.request.bodyType === 'application/json' && typeOf(op.request.body ?? {}) === 'object',
);

describe('request bodies', () => {
  it('refuse a field of the wrong type, however easily it converts, on every operation', async () => {
    const accepted: string[] = [];
    let sent = 0;
    for (const op of jsonBodies) {
      const body = sample(op.request.body) as Record<string, unknown>;
      const properties = (op.request.body?.properties ?? {}) as Record<string, Schema>;
      for (const [name, schema] of Object.entries(properties)) {
        const type = typeOf(schema);
        if (!type) continue;
        for (const value of coercible(type, sample(schema))) {
          const url = op.path.replace('{conversation_id}', conversation.conversation_id).replace(/\{[^}]+\}/g, 'X');
          const response = await t.app.http.inject({
            method: op.method as 'POST',
            url,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            payload: JSON.stringify({ ...body, [name]: value }),
          });
          sent += 1;
          if (response.statusCode !== 422)
            accepted.push(`${op.operationId} ${name}=${JSON.stringify(value)}: ${response.statusCode}`);
        }
      }
    }
    expect(accepted).toEqual([]);
    // The contract has dozens of typed body fields; a walk that found none would prove nothing.
    expect(sent).toBeGreaterThan(50);
  }, 120_000);
});
