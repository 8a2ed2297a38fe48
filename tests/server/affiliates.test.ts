import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { affiliateClicks, affiliates, users } from '../../server/db/schema.ts';
import { setAffiliateStatus } from '../../server/modules/affiliate/index.ts';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';

const t = withTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131 Safari/537.36';

async function affiliate(email: string, extra: Record<string, unknown> = {}) {
  const registered = await call(t.app, 'POST', '/api/affiliate/register', {
    body: { full_name: ' Ada Partner ', email, password: 'long enough', whatsapp: '+1 2025550123', ...extra },
  });
  expect(registered.status).toBe(200);
  const login = await call(t.app, 'POST', '/api/affiliate/login', { body: { email, password: 'long enough' } });
  expect(login.body?.affiliate_id).toBe(registered.body?.id);
  return { id: registered.body?.id as string, token: login.body?.access_token as string };
}

const as = (token: string) => ({
  get: (url: string) => call(t.app, 'GET', url, { token }),
  post: (url: string, body?: unknown) => call(t.app, 'POST', url, { token, ...(body !== undefined && { body }) }),
  put: (url: string, body: unknown) => call(t.app, 'PUT', url, { token, body }),
  delete: (url: string) => call(t.app, 'DELETE', url, { token }),
});

const click = (code: string, ip: string, userAgent = BROWSER, unique = true) =>
  call(t.app, 'POST', '/api/affiliate/click', { body: { code, unique }, ip, headers: { 'user-agent': userAgent } });

describe('affiliate accounts and links', () => {
  it('registers unverified, creates links only once verified, with the spec’s code rules', async () => {
    const ada = await affiliate('ada@partners.example', { telegram: '@ada', website: 'https://ada.example' });
    const api = as(ada.token);
    expect((await api.get('/api/affiliate/me')).body).toMatchObject({
      full_name: 'Ada Partner',
      email: 'ada@partners.example',
      telegram: '@ada',
      youtube: null,
      is_verified: false,
    });
    expect((await api.post('/api/affiliate/links', { name: 'YouTube', code: 'ada-yt' })).status).toBe(403);
    expect(await setAffiliateStatus(t.db, 'ADA@partners.example', 'verified')).toBe(true);
    expect((await api.get('/api/affiliate/me')).body?.is_verified).toBe(true);

    const created = await api.post('/api/affiliate/links', { name: '  YouTube ', code: ' Ada-YT ' });
    expect(created.body).toMatchObject({
      name: 'YouTube',
      code: 'Ada-YT',
      url: expect.stringMatching(/\/Ada-YT$/),
      total_clicks: 0,
      unique_clicks: 0,
      conversions: 0,
      earnings: 0,
    });
    const id = created.body?.id as string;
    expect((await api.post('/api/affiliate/links', { name: 'Again', code: 'ada-yt' })).body).toEqual({
      detail: 'This code is already taken. Please choose another one.',
    });
    expect((await api.post('/api/affiliate/links', { name: 'Page', code: 'Dashboard' })).body).toEqual({
      detail: 'This code is reserved. Please choose another one.',
    });
    expect((await api.post('/api/affiliate/links', { name: 'Long', code: 'x'.repeat(33) })).status).toBe(422);
    expect((await api.post('/api/affiliate/links', { name: 'Bad', code: 'a b' })).status).toBe(422);

    expect((await api.put(`/api/affiliate/links/${id}`, { name: ' Channel ' })).body?.name).toBe('Channel');
    expect(((await api.get('/api/affiliate/links')).body as unknown as { name: string }[]).map((l) => l.name)).toEqual([
      'Channel',
    ]);
    expect((await api.delete(`/api/affiliate/links/${id}`)).body).toEqual({ success: true });
    expect((await api.get('/api/affiliate/links')).body).toEqual([]);
    // An archived link keeps its code for good, and its clicks still count.
    expect((await api.post('/api/affiliate/links', { name: 'Reuse', code: 'ADA-yt' })).status).toBe(409);
    expect((await click('ada-yt', '10.0.0.1')).status).toBe(200);
  });

  it('refuses a WhatsApp number that is no international phone number, and stores nothing', async () => {
    for (const whatsapp of ['12345', '+1 123', '+999 2025550123', 'call me maybe']) {
      const refused = await call(t.app, 'POST', '/api/affiliate/register', {
        body: { full_name: 'Bad Number', email: 'bad.number@partners.example', password: 'long enough', whatsapp },
      });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({
        detail: [
          {
            loc: ['body', 'whatsapp'],
            msg: 'Please enter a valid WhatsApp number with its country code, e.g. +1 2025550123.',
            type: 'value_error',
          },
        ],
      });
    }
    expect(await t.db.select().from(affiliates).where(eq(affiliates.email, 'bad.number@partners.example'))).toEqual([]);
  });

  it('keeps affiliates and application users apart, and each affiliate to their own links', async () => {
    const bea = await affiliate('bea@partners.example');
    await setAffiliateStatus(t.db, 'bea@partners.example', 'verified');
    const link = (await as(bea.token).post('/api/affiliate/links', { name: 'Blog', code: 'bea-blog' })).body?.id;
    const cat = await affiliate('cat@partners.example');
    expect((await as(cat.token).put(`/api/affiliate/links/${link}`, { name: 'Mine' })).status).toBe(404);
    expect((await as(cat.token).delete(`/api/affiliate/links/${link}`)).status).toBe(404);
    expect((await as(cat.token).get('/api/affiliate/links')).body).toEqual([]);

    const user = await signUp(t.app, t.db, 'user-not-affiliate@acme.example');
    expect((await as(user.token).get('/api/affiliate/me')).status).toBe(401);
    expect((await as(bea.token).get('/api/auth/me/extended')).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/affiliate/links')).status).toBe(401);

    expect((await as(bea.token).post('/api/affiliate/logout')).status).toBe(200);
    expect((await as(bea.token).get('/api/affiliate/me')).status).toBe(401);
    const wrong = await call(t.app, 'POST', '/api/affiliate/login', {
      body: { email: 'bea@partners.example', password: 'not it' },
    });
    expect(wrong.body).toEqual({ detail: 'Invalid email or password.' });
    expect(
      (
        await call(t.app, 'POST', '/api/affiliate/register', {
          body: { full_name: 'B', email: 'BEA@partners.example', password: 'long enough', whatsapp: '+1 2025550123' },
        })
      ).status,
    ).toBe(409);
  });

  it('binds a user registered through a link to it for good, unless the link is their own', async () => {
    const gus = await affiliate('gus@partners.example');
    await setAffiliateStatus(t.db, 'gus@partners.example', 'verified');
    await as(gus.token).post('/api/affiliate/links', { name: 'Site', code: 'Gus-Site' });
    const register = (email: string) =>
      call(t.app, 'POST', '/api/auth/register', {
        body: { name: 'Customer', email, password: 'long enough', affiliate_code: 'gus-site' },
      });
    expect((await register('customer-of-gus@acme.example')).status).toBe(200);
    expect((await register('GUS@partners.example')).status).toBe(200);
    const codes = await t.db
      .select({ email: users.email, code: users.affiliateCode })
      .from(users)
      .where(sql`${users.email} in ('customer-of-gus@acme.example', 'GUS@partners.example')`);
    expect(Object.fromEntries(codes.map((row) => [row.email, row.code]))).toEqual({
      'customer-of-gus@acme.example': 'Gus-Site',
      'GUS@partners.example': null,
    });
    // Registering is not converting: that is the first paid purchase.
    expect(
      ((await as(gus.token).get('/api/affiliate/links')).body as unknown as { conversions: number }[])[0]?.conversions,
    ).toBe(0);
  });

  it('binds an affiliate registered through a link to its owner as second level', async () => {
    const dee = await affiliate('dee@partners.example');
    await setAffiliateStatus(t.db, 'dee@partners.example', 'verified');
    await as(dee.token).post('/api/affiliate/links', { name: 'Recruiting', code: 'dee-team' });
    const eve = await affiliate('eve@partners.example', { affiliate_code: 'DEE-TEAM' });
    const [row] = await t.db.select().from(affiliates).where(eq(affiliates.id, eve.id));
    expect(row?.parentAffiliateId).toBe(dee.id);
  });
});

describe('clicks on referral links', () => {
  it('counts 1,000 concurrent clicks from 100 visitors as 100 unique; bots are stored, not counted', async () => {
    const fay = await affiliate('fay@partners.example');
    await setAffiliateStatus(t.db, 'fay@partners.example', 'verified');
    const link = (await as(fay.token).post('/api/affiliate/links', { name: 'Ads', code: 'fay-ads' })).body;
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => click('fay-ads', `10.1.${i % 100}.1`, BROWSER, i % 2 === 0)),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect((await click('fay-ads', '10.9.9.9', 'Googlebot/2.1 (+http://www.google.com/bot.html)')).status).toBe(200);
    expect((await click('fay-ads', '10.9.9.8', '')).status).toBe(200);
    const [listed] = (await as(fay.token).get('/api/affiliate/links')).body as unknown as {
      unique_clicks: number;
      total_clicks: number;
    }[];
    expect(listed?.unique_clicks).toBe(100);
    expect(listed?.total_clicks).toBeGreaterThanOrEqual(100);

    // The same click sent twice at once (a double fire) counts once.
    const figures = async () =>
      ((await as(fay.token).get('/api/affiliate/links')).body as unknown as { total_clicks: number }[])[0];
    const before = (await figures())?.total_clicks ?? 0;
    await Promise.all([click('fay-ads', '10.7.7.7'), click('fay-ads', '10.7.7.7')]);
    expect((await figures())?.total_clicks).toBe(before + 1);
    const stored = await t.db
      .select()
      .from(affiliateClicks)
      .where(eq(affiliateClicks.linkId, link?.id as string));
    expect(stored).toHaveLength(1004);
    expect(JSON.stringify(stored)).not.toContain('10.1.');
    expect((await click('nobody-has-this', '10.0.0.2')).status).toBe(404);
  });
});
