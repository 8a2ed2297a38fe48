import { describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { sample } from './sample.ts';

const t = withTestApp();

/**
 * One successful call of every implemented operation. An operation that gets a handler
 * needs a line here, so its answers are checked against the contract.
 */
type Session = { token: string; email: string };
const scenarios: Record<string, (s: Session) => Promise<unknown>> = {
  getHealth: () => call(t.app, 'GET', '/health'),
  getReady: () => call(t.app, 'GET', '/ready'),
  getApiDocs: () => t.app.http.inject({ method: 'GET', url: '/api/docs' }),
  getOpenApiDocument: () => t.app.http.inject({ method: 'GET', url: '/api/openapi.yaml' }),
  register: () => call(t.app, 'POST', '/api/auth/register', { body: { name: 'N', email: 'other@acme.example', password: 'long enough' } }),
  login: (s) => call(t.app, 'POST', '/api/auth/login', { body: { email: s.email, password: 'long enough' } }),
  getCurrentUser: (s) => call(t.app, 'GET', '/api/auth/me/extended', { token: s.token }),
  getAuthCredits: (s) => call(t.app, 'GET', '/api/auth/credits', { token: s.token }),
  authenticate: (s) => call(t.app, 'POST', '/api/authenticate', { token: s.token }),
  getConfig: () => call(t.app, 'GET', '/api/options/config'),
  logoutSession: async (s) => call(t.app, 'POST', '/api/logout', { token: (await signIn(s.email)).token }),
  logout: async (s) => call(t.app, 'POST', '/api/auth/logout', { token: (await signIn(s.email)).token }),
};

async function signIn(email: string): Promise<Session> {
  const response = await call(t.app, 'POST', '/api/auth/login', { body: { email, password: 'long enough' } });
  return { token: response.body?.access_token as string, email };
}

describe('the contract', () => {
  it('binds every handler to a documented operation and lists what is implemented', () => {
    const documented = new Set(t.app.operations.map((o) => o.operationId));
    expect([...t.app.implemented].filter((id) => !documented.has(id))).toEqual([]);
    const byTag = new Map<string, { implemented: string[]; pending: string[] }>();
    for (const op of t.app.operations) {
      const entry = byTag.get(op.tag) ?? { implemented: [], pending: [] };
      (t.app.implemented.has(op.operationId) ? entry.implemented : entry.pending).push(op.operationId);
      byTag.set(op.tag, entry);
    }
    console.log(
      `Operations implemented: ${t.app.implemented.size} of ${t.app.operations.length}\n` +
        [...byTag].map(([tag, e]) => `  ${tag.padEnd(14)} ${e.implemented.length}/${e.implemented.length + e.pending.length}  ${e.implemented.join(', ')}`).join('\n'),
    );
  });

  it('answers every implemented operation within its documented schema', async () => {
    await call(t.app, 'POST', '/api/auth/register', { body: { name: 'Contract', email: 'contract@acme.example', password: 'long enough' } });
    const session = await signIn('contract@acme.example');
    const missing = [...t.app.implemented].filter((id) => !scenarios[id]);
    expect(missing, 'implemented operations without a contract scenario').toEqual([]);
    for (const run of Object.values(scenarios)) await run(session);
    const succeeded = [...t.app.implemented].filter((id) => [...(t.app.contract?.seen.get(id) ?? [])].some((s) => s < 300));
    expect(succeeded.sort()).toEqual([...t.app.implemented].sort());
    expect(t.app.contract?.violations).toEqual([]);
  });

  it('answers 501 with a detail on every operation not implemented yet, after validating the request', async () => {
    const session = await signIn('contract@acme.example');
    for (const op of t.app.operations.filter((o) => !t.app.implemented.has(o.operationId))) {
      const params = (sample(op.request.params) ?? {}) as Record<string, string>;
      const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? 'x')));
      const query = new URLSearchParams(Object.entries((sample(op.request.querystring) ?? {}) as Record<string, string>).map(([k, v]) => [k, String(v)]));
      const response = await t.app.http.inject({
        method: op.method as 'GET',
        url: query.size ? `${url}?${query}` : url,
        headers: { authorization: `Bearer ${session.token}`, 'x-session-api-key': 'x' },
        ...(op.request.body ? { payload: sample(op.request.body) as object } : {}),
        ...(op.request.bodyType === 'multipart/form-data' ? { payload: '', headers: { authorization: `Bearer ${session.token}`, 'content-type': 'multipart/form-data; boundary=x' } } : {}),
      });
      const expected = op.security.includes('bearer') || op.security.length === 0 ? 501 : [401, 501];
      expect.soft({ op: op.operationId, status: response.statusCode, body: response.json() }).toMatchObject({
        op: op.operationId,
        status: Array.isArray(expected) ? expect.toBeOneOf(expected) : expected,
        body: { detail: expect.any(String) },
      });
    }
  });
});
