import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { affiliateCommissions, creditLedger, users } from '../../server/db/schema.ts';
import { recordPurchaseCommissions, setAffiliateStatus } from '../../server/modules/affiliate/index.ts';
import { recordRefund } from '../../server/modules/billing/index.ts';
import { runCommand } from '../../server/cli/commands.ts';
import { call, withTestApp } from '../support/app.ts';
import { saveCardThroughOnboarding, signUp } from '../support/conversations.ts';

// The commission rules of public-site spec §9, on the ledger's purchases. Purchases are written
// straight into the ledger with the time they happened, then handed to the commission function,
// as the payment code does when a purchase completes.

const t = withTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
const DOLLAR = 1_000_000n;

async function affiliateWithLink(name: string, code: string, referrerCode?: string) {
  const email = `${name}@partners.example`;
  await call(t.app, 'POST', '/api/affiliate/register', {
    body: {
      full_name: name,
      email,
      password: 'long enough',
      whatsapp: '+1 2025550123',
      ...(referrerCode && { affiliate_code: referrerCode }),
    },
  });
  await setAffiliateStatus(t.db, email, 'verified');
  const login = await call(t.app, 'POST', '/api/affiliate/login', { body: { email, password: 'long enough' } });
  const token = login.body?.access_token as string;
  const link = await call(t.app, 'POST', '/api/affiliate/links', { token, body: { name: 'Main', code } });
  return { id: login.body?.affiliate_id as string, token, email, linkId: link.body?.id as string };
}

async function customer(code: string, email = `${randomUUID()}@acme.example`) {
  const id = randomUUID();
  await t.db.insert(users).values({ id, fullname: 'Customer', email, affiliateCode: code, isActive: true });
  return id;
}

/** A completed purchase at `at`, then its commissions; answers the level-1 and level-2 amounts. */
async function purchase(userId: string, dollars: bigint, at: string, key = `purchase:${randomUUID()}`) {
  await t.db.insert(creditLedger).values({
    userId,
    amountMicros: dollars * DOLLAR,
    transactionType: 'purchase',
    description: 'test purchase',
    idempotencyKey: key,
    createdAt: new Date(at),
  });
  await recordPurchaseCommissions(t.db, {
    userId,
    purchaseKey: key,
    revenueMicros: dollars * DOLLAR,
    at: new Date(at),
  });
  const rows = await t.db.select().from(affiliateCommissions).where(eq(affiliateCommissions.idempotencyKey, key));
  const level = (n: number) => rows.find((row) => row.level === n)?.amountMicros ?? null;
  return { direct: level(1), second: level(2), key };
}

describe('affiliate commissions', () => {
  it('pays the tier of the month’s referred revenue before the purchase: 10%, 15% from $50,000, 20% from $250,000', async () => {
    await affiliateWithLink('ana', 'ana-main');
    const buyer = await customer('ANA-MAIN');
    expect((await purchase(buyer, 49_999n, '2026-05-02T10:00:00Z')).direct).toBe(4_999n * DOLLAR + 900_000n);
    // $49,999 before: still Starter.
    expect((await purchase(buyer, 1n, '2026-05-03T10:00:00Z')).direct).toBe(100_000n);
    // Exactly $50,000 before: Growth.
    expect((await purchase(buyer, 100n, '2026-05-04T10:00:00Z')).direct).toBe(15n * DOLLAR);
    expect((await purchase(buyer, 199_900n, '2026-05-05T10:00:00Z')).direct).toBe(29_985n * DOLLAR);
    // Exactly $250,000 before: Scale.
    expect((await purchase(buyer, 100n, '2026-05-06T10:00:00Z')).direct).toBe(20n * DOLLAR);
    // A new calendar month (UTC) starts at Starter again.
    expect((await purchase(buyer, 100n, '2026-06-01T00:00:00Z')).direct).toBe(10n * DOLLAR);
  });

  it('decides the tier on the month’s revenue net of refunds', async () => {
    await affiliateWithLink('ivy', 'ivy-main');
    const buyer = await customer('ivy-main');
    const first = await purchase(buyer, 50_000n, '2026-07-01T10:00:00Z');
    // $50,000 before: Growth.
    expect((await purchase(buyer, 100n, '2026-07-02T10:00:00Z')).direct).toBe(15n * DOLLAR);
    await recordRefund(t.db, {
      reference: first.key.slice('purchase:'.length),
      refundId: 're_ivy',
      amountMicros: 1_000n * DOLLAR,
      at: new Date('2026-07-03T10:00:00Z'),
    });
    // $49,100 after the refund: Starter again.
    expect((await purchase(buyer, 100n, '2026-07-04T10:00:00Z')).direct).toBe(10n * DOLLAR);
  });

  it('pays for 12 months after the customer’s first purchase, and not from the first instant after', async () => {
    await affiliateWithLink('ben', 'ben-main');
    const buyer = await customer('ben-main');
    await purchase(buyer, 10n, '2025-03-15T10:00:00Z');
    expect((await purchase(buyer, 10n, '2026-03-15T09:59:59.999Z')).direct).toBe(DOLLAR);
    expect((await purchase(buyer, 10n, '2026-03-15T10:00:00Z')).direct).toBeNull();
  });

  it('pays the recruiting affiliate 3% of a second-level customer’s purchase, each purchase once', async () => {
    const cyd = await affiliateWithLink('cyd', 'cyd-team');
    const dot = await affiliateWithLink('dot', 'dot-main', 'cyd-team');
    const buyer = await customer('dot-main');
    const key = 'purchase:twice';
    const [first] = await Promise.all([
      purchase(buyer, 100n, '2026-05-10T10:00:00Z', key),
      recordPurchaseCommissions(t.db, {
        userId: buyer,
        purchaseKey: key,
        revenueMicros: 100n * DOLLAR,
        at: new Date('2026-05-10T10:00:00Z'),
      }),
    ]);
    expect(first).toMatchObject({ direct: 10n * DOLLAR, second: 3n * DOLLAR });
    expect(
      await t.db.select().from(affiliateCommissions).where(eq(affiliateCommissions.idempotencyKey, key)),
    ).toHaveLength(2);

    const affiliators = await call(t.app, 'GET', `/api/affiliate/links/${cyd.linkId}/affiliators`, {
      token: cyd.token,
    });
    expect(affiliators.body).toEqual([
      expect.objectContaining({ id: dot.id, name: 'dot', email: dot.email, status: 'Active', commission: 3 }),
    ]);
    const links = await call(t.app, 'GET', '/api/affiliate/links', { token: dot.token });
    expect(links.body).toEqual([expect.objectContaining({ conversions: 1, earnings: 10 })]);
  });

  it('pays nothing for buying through one’s own link, nor counts it in the month’s revenue; the earnings and the users agree with the ledger', async () => {
    const eli = await affiliateWithLink('eli', 'eli-main');
    const self = await customer('eli-main', eli.email.toUpperCase());
    expect((await purchase(self, 100n, new Date().toISOString())).direct).toBeNull();
    const paying = await customer('eli-main');
    await customer('eli-main');
    await purchase(paying, 200n, new Date().toISOString());

    const earnings = await call(t.app, 'GET', '/api/affiliate/earnings', { token: eli.token });
    expect(earnings.body).toEqual({
      total_earnings: 20,
      current_month_earnings: 20,
      current_month_revenue: 200,
      total_referrals: 3,
      active_referrals: 2,
    });
    const people = (await call(t.app, 'GET', `/api/affiliate/links/${eli.linkId}/users`, { token: eli.token }))
      .body as unknown as { id: string; status: string; commission: number }[];
    expect(people.map((p) => [p.status, p.commission]).sort()).toEqual([
      ['Active', 0],
      ['Active', 20],
      ['Pending', 0],
    ]);
    const other = await affiliateWithLink('fin', 'fin-main');
    expect((await call(t.app, 'GET', `/api/affiliate/links/${eli.linkId}/users`, { token: other.token })).status).toBe(
      404,
    );
  });

  it('pays, for purchases at once near a tier threshold, exactly what one after another would ($50,000 and $250,000)', async () => {
    for (const [name, before, threshold, lower, upper] of [
      ['kim', 45_000n, 50_000n, 20n, 30n],
      ['lou', 245_000n, 250_000n, 30n, 40n],
    ] as const) {
      await affiliateWithLink(name, `${name}-main`);
      const month = '2026-08';
      await purchase(await customer(`${name}-main`), before, `${month}-01T09:00:00Z`);
      const buyers = await Promise.all(Array.from({ length: 50 }, () => customer(`${name}-main`)));
      // 50 customers buy $200 each at the same moment, each in its own transaction, as a purchase's credit is.
      const keys = await Promise.all(
        buyers.map(async (userId, index) => {
          const key = `purchase:${name}-${index}`;
          const at = new Date(`${month}-02T10:00:00Z`);
          await t.db.transaction(async (tx) => {
            await tx.insert(creditLedger).values({
              userId,
              amountMicros: 200n * DOLLAR,
              transactionType: 'purchase',
              description: 'test purchase',
              idempotencyKey: key,
              createdAt: at,
            });
            await recordPurchaseCommissions(tx, { userId, purchaseKey: key, revenueMicros: 200n * DOLLAR, at });
          });
          return key;
        }),
      );
      const rows = await t.db
        .select()
        .from(affiliateCommissions)
        .where(inArray(affiliateCommissions.idempotencyKey, keys));
      const paid = rows.map((row) => row.amountMicros / DOLLAR);
      // ($threshold − $before) / $200 = 25 purchases start below the threshold; the 26th starts exactly at it.
      expect(Number(threshold - before) / 200).toBe(25);
      expect(paid.filter((amount) => amount === lower)).toHaveLength(25);
      expect(paid.filter((amount) => amount === upper)).toHaveLength(25);
    }
  });

  it('pays no affiliate on their own purchases at any level, and nothing once an affiliate is rejected', async () => {
    const max = await affiliateWithLink('max', 'max-team');
    await affiliateWithLink('ned', 'ned-main', 'max-team');
    // The recruiter registers as a customer through the recruit's link: the recruit earns, the recruiter not.
    const recruiterBuys = await customer('ned-main', max.email.toUpperCase());
    expect(await purchase(recruiterBuys, 100n, '2026-09-01T10:00:00Z')).toMatchObject({
      direct: 10n * DOLLAR,
      second: null,
    });
    const other = await customer('ned-main');
    expect(await purchase(other, 100n, '2026-09-02T10:00:00Z')).toMatchObject({
      direct: 10n * DOLLAR,
      second: 3n * DOLLAR,
    });

    // Rejected: the links earn nothing from then on, the recruiter nothing on them; new customers are not bound.
    await setAffiliateStatus(t.db, 'ned@partners.example', 'rejected');
    expect(await purchase(other, 100n, '2026-09-03T10:00:00Z')).toMatchObject({ direct: null, second: null });
    const registered = await call(t.app, 'POST', '/api/auth/register', {
      body: {
        name: 'Late',
        email: 'late-customer@acme.example',
        password: 'long enough',
        affiliate_code: 'ned-main',
      },
    });
    expect(registered.status).toBe(200);
    const [late] = await t.db.select().from(users).where(eq(users.email, 'late-customer@acme.example'));
    expect(late?.affiliateCode).toBeNull();
    const ned = await call(t.app, 'POST', '/api/affiliate/login', {
      body: { email: 'ned@partners.example', password: 'long enough' },
    });
    const me = await call(t.app, 'GET', '/api/affiliate/me', { token: ned.body?.access_token as string });
    expect(me.body).toMatchObject({ is_verified: false, status: 'rejected' });
    // A rejected recruiter earns nothing on their recruits either.
    await setAffiliateStatus(t.db, 'ned@partners.example', 'verified');
    await setAffiliateStatus(t.db, max.email, 'rejected');
    expect(await purchase(other, 100n, '2026-09-04T10:00:00Z')).toMatchObject({ direct: 10n * DOLLAR, second: null });
  });

  it('reverses the commissions of a refunded purchase in proportion, once, and takes the refunded credit back', async () => {
    const gil = await affiliateWithLink('gil', 'gil-main');
    const hal = await affiliateWithLink('hal', 'hal-main', 'gil-main');
    const email = 'refunded-customer@acme.example';
    const buyer = await signUp(t.app, t.db, email);
    await t.db.update(users).set({ affiliateCode: 'hal-main' }).where(eq(users.id, buyer.id));
    expect((await saveCardThroughOnboarding(t.app, buyer.token, '4242 4242 4242 4242')).status).toBe(200);
    expect(
      (await call(t.app, 'POST', '/api/auth/purchase-credits', { token: buyer.token, body: { amount: 100 } })).status,
    ).toBe(200);
    const totals = async () =>
      Promise.all(
        [hal, gil].map(
          async (a) => (await call(t.app, 'GET', '/api/affiliate/earnings', { token: a.token })).body?.total_earnings,
        ),
      );
    expect(await totals()).toEqual([10, 3]);
    const monthRevenue = async () =>
      (await call(t.app, 'GET', '/api/affiliate/earnings', { token: hal.token })).body?.current_month_revenue;
    expect(await monthRevenue()).toBe(100);
    const credits = async () =>
      (await call(t.app, 'GET', '/api/billing/credits', { token: buyer.token })).body?.credits;
    const before = (await credits()) as number;

    const admin = async (...args: string[]) => {
      const lines: string[] = [];
      const code = await runCommand(
        t.db,
        args,
        (line) => lines.push(line),
        async () => {},
      );
      return { code, text: lines.join('\n') };
    };
    const listed = await admin('purchases', email);
    const reference = /^(pi_test_\w+)\t\$100\.00\t/m.exec(listed.text)?.[1];
    expect(reference).toBeDefined();

    expect(await admin('purchase:refund', reference ?? '', '40')).toEqual({
      code: 0,
      text: `Refund of purchase ${reference} recorded: $40.00 of $100.00 refunded, $60.00 left; the customer's balance is $${before - 40}.00`,
    });
    expect(await totals()).toEqual([6, 1.8]);
    expect(await credits()).toBe(before - 40);
    expect(await monthRevenue()).toBe(60);
    const link = (await call(t.app, 'GET', '/api/affiliate/links', { token: hal.token })).body as unknown as {
      conversions: number;
      earnings: number;
    }[];
    expect(link[0]).toMatchObject({ conversions: 1, earnings: 6 });
    // A second partial refund, up to the purchase; beyond it, what is left is said and nothing recorded.
    expect((await admin('purchase:refund', reference ?? '', '40')).code).toBe(0);
    expect(await totals()).toEqual([2, 0.6]);
    expect(await admin('purchase:refund', reference ?? '', '40.01')).toEqual({
      code: 1,
      text: 'Only $20.00 of the purchase of $100.00 is left to refund ($80.00 refunded before): nothing was recorded.',
    });
    expect(await credits()).toBe(before - 80);
    // Without an amount, what is left; then nothing is.
    expect((await admin('purchase:refund', reference ?? '')).text).toContain('$100.00 of $100.00 refunded, $0.00 left');
    expect(await totals()).toEqual([0, 0]);
    expect(await admin('purchase:refund', reference ?? '', '5')).toEqual({
      code: 1,
      text: 'The purchase of $100.00 is already refunded in full: nothing was recorded.',
    });
    expect(await credits()).toBe(before - 100);

    expect((await admin('purchase:refund', 'pi_test_unknown')).text).toBe(
      'No completed purchase has the reference pi_test_unknown',
    );
    expect(await admin('purchase:refund', 'pi_3NlLive')).toEqual({
      code: 1,
      text: 'pi_3NlLive was not paid with the test payment provider: refund it in Stripe, whose webhook records the refund.',
    });
  });
});
