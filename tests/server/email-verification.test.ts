import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../server/cli/commands.ts';
import { emailVerifications, outbox } from '../../server/db/schema.ts';
import { ALREADY_VERIFIED, INVALID_LINK } from '../../server/modules/auth/email-verification.ts';
import { call, withTestApp } from '../support/app.ts';
import { completeOnboarding } from '../support/conversations.ts';
import { newestMailTo, verificationToken } from '../support/mail.ts';
import { startSmtpServer } from '../support/smtp-server.ts';

const PASSWORD = 'long enough';

async function register(app: ReturnType<typeof withTestApp>['app'], email: string) {
  expect(
    (await call(app, 'POST', '/api/auth/register', { body: { name: 'Mailed', email, password: PASSWORD }, ip: email }))
      .status,
  ).toBe(200);
  const login = await call(app, 'POST', '/api/auth/login', { body: { email, password: PASSWORD }, ip: email });
  return login.body?.access_token as string;
}

const verify = (app: ReturnType<typeof withTestApp>['app'], token: string) =>
  call(app, 'POST', '/api/auth/verify-email', { body: { token } });

/** The link's row, aged as if it had been sent `ms` earlier. */
async function ageLink(db: ReturnType<typeof withTestApp>['db'], email: string, ms: number) {
  const [row] = await db.select().from(emailVerifications).where(eq(emailVerifications.email, email));
  if (!row) throw new Error(`no link for ${email}`);
  await db
    .update(emailVerifications)
    .set({ createdAt: new Date(row.createdAt.getTime() - ms), expiresAt: new Date(row.expiresAt.getTime() - ms) })
    .where(eq(emailVerifications.tokenHash, row.tokenHash));
}

/** A mail's body as its reader sees it: quoted-printable soft breaks joined and escapes decoded. */
const decodedBody = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describe('email verification through the outbox (no SMTP_URL)', () => {
  const t = withTestApp({ PUBLIC_URL: 'https://atelier.example' });

  it('mails a link on registration; until it is opened the account cannot start a conversation', async () => {
    const token = await register(t.app, 'new@acme.example');
    const me = await call(t.app, 'GET', '/api/auth/me/extended', { token });
    expect(me.body).toMatchObject({ email: 'new@acme.example', email_verified: false });
    const mail = await newestMailTo(t.db, 'new@acme.example');
    expect(mail.subject).toBe('Verify your email address for Atelier');
    expect(mail.text).toMatch(/https:\/\/atelier\.example\/verify-email\?token=[A-Za-z0-9_-]{43}\n/);
    // Only the token's hash is stored.
    const link = verificationToken(mail.text);
    const rows = await t.db.select().from(emailVerifications).where(eq(emailVerifications.email, 'new@acme.example'));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(link);

    await completeOnboarding(t.app, token);
    const refused = await call(t.app, 'POST', '/api/conversations', { token, body: {} });
    expect(refused).toMatchObject({
      status: 403,
      body: { detail: 'Please verify your email address before starting a conversation.' },
    });

    // Signed out, in any browser: the link alone verifies.
    expect(await verify(t.app, link)).toMatchObject({
      status: 200,
      body: { email: 'new@acme.example', email_verified: true },
    });
    expect((await call(t.app, 'GET', '/api/auth/me/extended', { token })).body?.email_verified).toBe(true);
    // Past the verification now, the start is held only by the credit this new account lacks.
    expect((await call(t.app, 'POST', '/api/conversations', { token, body: {} })).status).toBe(402);
    // Opened twice (a mail client's preview, then the reader): the same answer.
    expect((await verify(t.app, link)).status).toBe(200);
    const again = await call(t.app, 'POST', '/api/email/verification', { token });
    expect(again).toMatchObject({ status: 409, body: { detail: ALREADY_VERIFIED } });
  });

  it('refuses an unknown, a malformed and an expired link, changing nothing', async () => {
    const token = await register(t.app, 'late@acme.example');
    const link = verificationToken((await newestMailTo(t.db, 'late@acme.example')).text);
    expect(await verify(t.app, 'A'.repeat(43))).toMatchObject({ status: 400, body: { detail: INVALID_LINK } });
    expect((await verify(t.app, 'not a token!')).status).toBe(422);
    await ageLink(t.db, 'late@acme.example', 24 * 3600_000 + 1000);
    expect(await verify(t.app, link)).toMatchObject({ status: 400, body: { detail: INVALID_LINK } });
    expect((await call(t.app, 'GET', '/api/auth/me/extended', { token })).body?.email_verified).toBe(false);
  });

  it('sends a new link at most once a minute; the new one replaces the old', async () => {
    const token = await register(t.app, 'again@acme.example');
    const first = verificationToken((await newestMailTo(t.db, 'again@acme.example')).text);
    const tooSoon = await call(t.app, 'POST', '/api/email/verification', { token });
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body?.detail).toMatch(
      /^A verification email was sent a moment ago\. Please try again in \d+ seconds\.$/,
    );
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);
    await ageLink(t.db, 'again@acme.example', 61_000);
    expect(await call(t.app, 'POST', '/api/email/verification', { token })).toMatchObject({
      status: 200,
      body: { email: 'again@acme.example', email_verified: false },
    });
    const second = verificationToken((await newestMailTo(t.db, 'again@acme.example')).text);
    expect(second).not.toBe(first);
    expect((await verify(t.app, first)).status).toBe(400);
    expect((await verify(t.app, second)).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/email/verification', {})).status).toBe(401);
  });

  it('lets the operator read the outbox with the admin command', async () => {
    const lines: string[] = [];
    expect(
      await runCommand(
        t.db,
        ['outbox', '2'],
        (line) => lines.push(line),
        async () => {},
      ),
    ).toBe(0);
    const listing = lines.join('\n');
    expect(listing).toContain('to again@acme.example');
    expect(listing).toContain('Subject: Verify your email address for Atelier');
    expect(listing.match(/^#\d+ /gm)).toHaveLength(2);
    expect(
      await runCommand(
        t.db,
        ['outbox', 'many'],
        (line) => lines.push(line),
        async () => {},
      ),
    ).toBe(1);
  });
});

describe('email verification through SMTP (SMTP_URL set)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer({ refuse: /^nobody@/ });
  });
  afterAll(() => smtp.close());
  const t = withTestApp(() => ({ SMTP_URL: smtp.url, SUPPORT_EMAIL: 'hello@atelier.example' }));

  it('sends the link through the SMTP server and keeps nothing in the outbox', async () => {
    const token = await register(t.app, 'smtp@acme.example');
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.from).toBe('hello@atelier.example');
    expect(mail?.to).toEqual(['smtp@acme.example']);
    expect(mail?.raw).toContain('Subject: Verify your email address for Atelier');
    const link = verificationToken(decodedBody(mail?.raw ?? ''));
    expect((await verify(t.app, link)).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/auth/me/extended', { token })).body?.email_verified).toBe(true);
    expect(await t.db.select().from(outbox)).toEqual([]);
  });

  it('keeps the account when SMTP refuses the mail, answers 502 on a resend, and leaves the next one free to go', async () => {
    const token = await register(t.app, 'nobody@acme.example');
    expect((await call(t.app, 'GET', '/api/auth/me/extended', { token })).body?.email_verified).toBe(false);
    const refused = await call(t.app, 'POST', '/api/email/verification', { token });
    expect(refused.status).toBe(502);
    expect(refused.body?.detail).toContain('The verification email could not be sent');
    // Nothing was sent, so nothing holds the next request back.
    expect((await call(t.app, 'POST', '/api/email/verification', { token })).status).toBe(502);
    expect(
      await t.db.select().from(emailVerifications).where(eq(emailVerifications.email, 'nobody@acme.example')),
    ).toEqual([]);
  });
});

describe('email verification in oss mode', () => {
  const t = withTestApp({ APP_MODE: 'oss' });

  it('does not exist: the local user has no account to verify', async () => {
    expect((await verify(t.app, 'A'.repeat(43))).status).toBe(404);
    expect((await call(t.app, 'POST', '/api/email/verification', {})).status).toBe(404);
  });
});
