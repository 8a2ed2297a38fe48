import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/index.ts';
import { creditAccounts, creditLedger, creditLots, users } from '../../server/db/schema.ts';
import {
  balanceMicros,
  chargeUsage,
  grantCredit,
  GRANT_LIFETIME_MS,
  grantExpiry,
  settleExpiredCredit,
} from '../../server/modules/credits/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

// The credits ledger (integer micro-dollars, append-only, row locks) on whichever database the pass uses (PGlite, or PostgreSQL with
// a pool of ten connections, where the concurrent charges really do race).

let database: TestDatabase;
let opened: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  opened = await database.open();
});
afterAll(async () => {
  await opened?.close();
  await database?.destroy();
});

async function newUser() {
  const id = randomUUID();
  await opened.db.insert(users).values({ id, fullname: 'Ledger', email: `${id}@acme.example` });
  return id;
}

const grant = (userId: string, amountMicros: bigint, options: Partial<Parameters<typeof grantCredit>[1]> = {}) =>
  grantCredit(opened.db, {
    userId,
    amountMicros,
    type: 'credit',
    kind: 'promotional',
    description: 'grant',
    idempotencyKey: randomUUID(),
    expiresAt: null,
    ...options,
  });

const charge = (userId: string, amountMicros: bigint, idempotencyKey: string, at?: Date) =>
  chargeUsage(opened.db, {
    userId,
    amountMicros,
    description: 'usage',
    idempotencyKey,
    conversationId: 'conversation',
    category: 'llm',
    subcategory: 'chat',
    ...(at && { at }),
  });

/** The three figures that must always agree: the completed entries' sum, the account's balance, the lots' remainders. */
async function books(userId: string) {
  const [ledger] = await opened.db
    .select({ sum: sql<string>`coalesce(sum(${creditLedger.amountMicros}), 0)` })
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId), eq(creditLedger.status, 'completed')));
  const [account] = await opened.db.select().from(creditAccounts).where(eq(creditAccounts.userId, userId));
  const [lots] = await opened.db
    .select({ sum: sql<string>`coalesce(sum(${creditLots.remainingMicros}), 0)` })
    .from(creditLots)
    .where(eq(creditLots.userId, userId));
  return { ledger: BigInt(ledger?.sum ?? 0), account: account?.balanceMicros ?? 0n, lots: BigInt(lots?.sum ?? 0) };
}

const remainders = async (userId: string) =>
  (
    await opened.db
      .select({ description: creditLedger.description, remaining: creditLots.remainingMicros })
      .from(creditLots)
      .innerJoin(creditLedger, eq(creditLedger.id, creditLots.ledgerId))
      .where(eq(creditLots.userId, userId))
  )
    .map((row) => [row.description, row.remaining] as const)
    .sort(([a], [b]) => a.localeCompare(b));

describe('the credits ledger', () => {
  it('takes 1,000 concurrent charges against one balance exactly, never below zero, and each key once', async () => {
    const userId = await newUser();
    await grant(userId, 10_000_000n);
    // 1,000 × $0.012345 is $12.345: the $10 cover 810 of them and $0.00055 of the 811th.
    const keys = Array.from({ length: 1000 }, (_, i) => `call-${i}`);
    const balances = await Promise.all(keys.map((key) => charge(userId, 12_345n, key)));
    expect(balances.every((balance) => balance >= 0n)).toBe(true);
    expect(await balanceMicros(opened.db, userId)).toBe(0n);
    const mine = await opened.db
      .select({ amount: creditLedger.amountMicros })
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, userId), eq(creditLedger.transactionType, 'usage')));
    expect(mine.reduce((sum, row) => sum - row.amount, 0n)).toBe(10_000_000n);
    expect(mine.filter((row) => row.amount === -12_345n)).toHaveLength(810);
    expect(mine.filter((row) => row.amount === -550n)).toHaveLength(1);
    expect(mine.filter((row) => row.amount === 0n)).toHaveLength(189);
    expect(await books(userId)).toEqual({ ledger: 0n, account: 0n, lots: 0n });

    // Delivered again (a retry after a lost answer): nothing more is taken, even with new credit.
    await grant(userId, 1_000_000n);
    await Promise.all(keys.map((key) => charge(userId, 12_345n, key)));
    expect(await balanceMicros(opened.db, userId)).toBe(1_000_000n);
    expect(await books(userId)).toEqual({ ledger: 1_000_000n, account: 1_000_000n, lots: 1_000_000n });
  });

  it('grants once per key, concurrently too', async () => {
    const userId = await newUser();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => grant(userId, 50_000_000n, { idempotencyKey: 'free-credit:payment-details' })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await balanceMicros(opened.db, userId)).toBe(50_000_000n);
    await expect(grant(userId, 0n)).rejects.toThrow(RangeError);
  });

  it('spends the earliest expiry first and promotional before paid credit', async () => {
    const userId = await newUser();
    const now = new Date('2026-11-25T12:00:00Z');
    const days = (n: number) => new Date(now.getTime() + n * 86_400_000);
    await grant(userId, 10_000_000n, { description: 'a paid, never expires', kind: 'paid', type: 'purchase' });
    await grant(userId, 5_000_000n, { description: 'b promotional, never expires' });
    await grant(userId, 3_000_000n, { description: 'c promotional, 60 days', expiresAt: days(60) });
    await grant(userId, 2_000_000n, { description: 'd paid, 10 days', kind: 'paid', expiresAt: days(10) });
    await grant(userId, 1_000_000n, { description: 'e promotional, 10 days', expiresAt: days(10) });

    await charge(userId, 1_500_000n, 'first', now);
    expect(await remainders(userId)).toEqual([
      ['a paid, never expires', 10_000_000n],
      ['b promotional, never expires', 5_000_000n],
      ['c promotional, 60 days', 3_000_000n],
      ['d paid, 10 days', 1_500_000n],
      ['e promotional, 10 days', 0n],
    ]);
    await charge(userId, 9_000_000n, 'second', now);
    expect(await remainders(userId)).toEqual([
      ['a paid, never expires', 10_000_000n],
      ['b promotional, never expires', 500_000n],
      ['c promotional, 60 days', 0n],
      ['d paid, 10 days', 0n],
      ['e promotional, 10 days', 0n],
    ]);
    expect(await balanceMicros(opened.db, userId, now)).toBe(10_500_000n);
    expect(await books(userId)).toEqual({ ledger: 10_500_000n, account: 10_500_000n, lots: 10_500_000n });
  });

  it('expires granted credit at its boundary, with a transaction of its own, once', async () => {
    const userId = await newUser();
    const granted = new Date('2026-08-27T09:30:00Z');
    const expiry = grantExpiry(granted);
    expect(expiry.getTime() - granted.getTime()).toBe(GRANT_LIFETIME_MS);
    await grant(userId, 50_000_000n, { expiresAt: expiry });
    await grant(userId, 7_000_000n, { kind: 'paid', type: 'purchase' });
    await charge(userId, 20_000_000n, 'before', new Date(expiry.getTime() - 86_400_000));

    // A millisecond before, the $30 left of the grant still counts; at the boundary it does not.
    expect(await balanceMicros(opened.db, userId, new Date(expiry.getTime() - 1))).toBe(37_000_000n);
    expect(await balanceMicros(opened.db, userId, expiry)).toBe(7_000_000n);
    // Reads do not write: the account still holds it until a debit or the history settles.
    expect((await books(userId)).account).toBe(37_000_000n);

    await settleExpiredCredit(opened.db, userId, expiry);
    await settleExpiredCredit(opened.db, userId, new Date(expiry.getTime() + 1000));
    await charge(userId, 1_000_000n, 'after', new Date(expiry.getTime() + 2000));
    const expired = await opened.db
      .select()
      .from(creditLedger)
      .where(sql`${creditLedger.userId} = ${userId} and ${creditLedger.description} = 'Expired credit'`);
    expect(expired.map((row) => [row.amountMicros, row.transactionType, row.createdAt.getTime()])).toEqual([
      [-30_000_000n, 'debit', expiry.getTime()],
    ]);
    expect(await books(userId)).toEqual({ ledger: 6_000_000n, account: 6_000_000n, lots: 6_000_000n });
  });

  it('refuses by constraint a balance below zero or a lot spent past its amount, whoever writes', async () => {
    const userId = await newUser();
    await grant(userId, 1_000_000n);
    await expect(
      opened.db.update(creditAccounts).set({ balanceMicros: -1n }).where(eq(creditAccounts.userId, userId)),
    ).rejects.toThrow();
    await expect(
      opened.db.update(creditLots).set({ remainingMicros: 2_000_000n }).where(eq(creditLots.userId, userId)),
    ).rejects.toThrow();
    expect(await balanceMicros(opened.db, userId)).toBe(1_000_000n);
  });
});
