import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '../../server/db/index.ts';
import { grantCredit } from '../../server/modules/credits/index.ts';
import { call, withTestApp } from '../support/app.ts';

const t = withTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', AUTH_RATE_LIMIT_PER_EMAIL: '5' });
let n = 0;
const company = () => `dev${++n}@acme-${n}.example`;
const register = (body: Record<string, unknown>) =>
  call(t.app, 'POST', '/api/auth/register', { body: { name: 'Ada Lovelace', password: 'correct horse', ...body } });
const login = (email: string, password = 'correct horse', remember_me = true) =>
  call(t.app, 'POST', '/api/auth/login', { body: { email, password, remember_me } });

describe('registration', () => {
  it('holds a personal email until the user confirms it, creating nothing meanwhile', async () => {
    const email = `ada${++n}@gmail.com`;
    const first = await register({ email });
    expect(first).toMatchObject({ status: 200, body: { id: null, personal_email_detected: true } });
    expect((await login(email)).status).toBe(401);
    const second = await register({ email, is_personal: true });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ personal_email_detected: false });
    expect(typeof second.body?.id).toBe('string');
    const token = (await login(email)).body?.access_token as string;
    const me = await call(t.app, 'GET', '/api/auth/me/extended', { token });
    expect(me.body).toMatchObject({
      id: second.body?.id,
      email,
      fullname: 'Ada Lovelace',
      is_personal: true,
      is_active: false,
      credits: { balance: 0 },
    });
  });

  it('registers a company email at once as a non-personal, inactive account with an argon2id hash', async () => {
    const email = company();
    const result = await register({ email, affiliate_code: 'PARTNER1' });
    expect(result.body).toMatchObject({ personal_email_detected: false });
    const [row] = await t.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    // PARTNER1 is no affiliate link's code: nothing to bind the account to.
    expect(row).toMatchObject({ isPersonal: false, isActive: false, affiliateCode: null });
  });

  it('refuses an email that differs only in case, and lets exactly one of racing registrations win', async () => {
    const email = company();
    expect((await register({ email })).status).toBe(200);
    const again = await register({ email: email.toUpperCase() });
    expect(again).toMatchObject({ status: 409, body: { detail: 'An account with this email already exists.' } });
    const racing = company();
    const results = await Promise.all(Array.from({ length: 4 }, () => register({ email: racing })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  });

  it('answers invalid bodies with a detail list naming each field', async () => {
    const result = await register({ name: 'x', email: 'not-an-email', password: 'short', extra: true });
    expect(result.status).toBe(422);
    const fields = (result.body?.detail as { loc: string[] }[]).map((d) => d.loc.at(-1));
    expect(fields.sort()).toEqual(['email', 'extra', 'password']);
    const blank = await register({ name: '   ', email: company() });
    expect(blank).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['body', 'name'], msg: 'Name is required' }] },
    });
  });
});

describe('sessions', () => {
  it('signs in, keeps the token hashed, and revokes it on logout', async () => {
    const email = company();
    await register({ email });
    const signedIn = await login(email.toUpperCase());
    expect(signedIn.status).toBe(200);
    const token = signedIn.body?.access_token as string;
    const db = t.db;
    const stored = await db.select().from(schema.sessions);
    expect(stored.some((s) => s.tokenHash === token)).toBe(false);
    expect((await call(t.app, 'POST', '/api/authenticate', { token })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/auth/logout', { token })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/auth/me/extended', { token })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/authenticate', { token })).status).toBe(401);
  });

  it('ends the session through /api/logout as well', async () => {
    const email = company();
    await register({ email });
    const token = (await login(email)).body?.access_token as string;
    expect((await call(t.app, 'POST', '/api/logout', { token })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/auth/credits', { token })).status).toBe(401);
  });

  it('gives long sessions with remember_me and short ones without, and refuses expired tokens', async () => {
    const email = company();
    await register({ email });
    const hours = (r: Awaited<ReturnType<typeof login>>) =>
      (Date.parse(r.body?.expires_at as string) - Date.now()) / 3600_000;
    expect(hours(await login(email, 'correct horse', true))).toBeGreaterThan(24 * 29);
    const short = await login(email, 'correct horse', false);
    expect(hours(short)).toBeLessThanOrEqual(12);
    const db = t.db;
    await db.update(schema.sessions).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(
      (await call(t.app, 'GET', '/api/auth/me/extended', { token: short.body?.access_token as string })).status,
    ).toBe(401);
  });

  it('gives the same answer for a wrong password and an unknown email', async () => {
    const email = company();
    await register({ email });
    const wrong = await login(email, 'wrong password');
    const unknown = await login(company());
    expect(wrong).toMatchObject({ status: 401, body: { detail: 'Invalid email or password.' } });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('rate-limits sign-in per email with a Retry-After', async () => {
    const email = company();
    await register({ email });
    for (let i = 0; i < 5; i++) expect((await login(email, 'wrong')).status).toBe(401);
    const limited = await login(email);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body?.detail).toMatch(/^Too many sign-in attempts/);
  });

  it('refuses calls without a token and reports the balance from the ledger', async () => {
    expect(await call(t.app, 'GET', '/api/auth/me/extended')).toMatchObject({
      status: 401,
      body: { detail: 'Not authenticated' },
    });
    const email = company();
    const id = (await register({ email })).body?.id as string;
    const token = (await login(email)).body?.access_token as string;
    const db = t.db;
    const grant = {
      userId: id,
      amountMicros: 12_345_678n,
      type: 'credit' as const,
      kind: 'paid' as const,
      expiresAt: null,
      description: 'test grant',
      idempotencyKey: 'g1',
    };
    expect(await grantCredit(db, grant)).toBe(true);
    expect(await grantCredit(db, grant)).toBe(false);
    expect((await call(t.app, 'GET', '/api/auth/credits', { token })).body).toEqual({ balance: 12.345678 });
  });
});

describe('rate limit per address', () => {
  const s = withTestApp({ AUTH_RATE_LIMIT_PER_IP: '3' });
  it('refuses a fourth registration from one address within the window, not from another', async () => {
    const reg = (ip: string) =>
      call(s.app, 'POST', '/api/auth/register', { ip, body: { name: 'A', email: company(), password: 'long enough' } });
    for (let i = 0; i < 3; i++) expect((await reg('10.1.1.1')).status).toBe(200);
    expect((await reg('10.1.1.1')).status).toBe(429);
    expect((await reg('10.1.1.2')).status).toBe(200);
  });
});

describe('system', () => {
  it('reports liveness and readiness', async () => {
    expect(await call(t.app, 'GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call(t.app, 'GET', '/ready')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
  it('answers unknown API paths with a detail', async () => {
    expect(await call(t.app, 'GET', '/api/no-such-thing')).toMatchObject({
      status: 404,
      body: { detail: 'Not found' },
    });
  });
});

describe('the profile', () => {
  it('saves the name, trimmed, and nothing else; everyone else keeps theirs', async () => {
    await call(t.app, 'POST', '/api/auth/register', {
      body: { name: 'Old Name', email: 'profile@acme.example', password: 'long enough' },
    });
    const login = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'profile@acme.example', password: 'long enough' },
    });
    const token = login.body?.access_token as string;
    const saved = await call(t.app, 'PATCH', '/api/auth/me', { token, body: { fullname: '  Ada Lovelace ' } });
    expect(saved.body).toMatchObject({ fullname: 'Ada Lovelace', email: 'profile@acme.example' });
    expect((await call(t.app, 'GET', '/api/auth/me/extended', { token })).body?.fullname).toBe('Ada Lovelace');
    for (const fullname of ['   ', 'x'.repeat(101)])
      expect((await call(t.app, 'PATCH', '/api/auth/me', { token, body: { fullname } })).status).toBe(422);
    expect(
      (await call(t.app, 'PATCH', '/api/auth/me', { token, body: { fullname: 'A', email: 'other@acme.example' } }))
        .status,
    ).toBe(422);
    expect((await call(t.app, 'PATCH', '/api/auth/me', { body: { fullname: 'Nobody' } })).status).toBe(401);
  });
});
