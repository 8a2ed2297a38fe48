import { sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { creditLedger } from '../../db/schema.ts';
import { ledgerWrites } from '../../shared/metrics.ts';

// The ledger's writes are the database functions of migration 0009 (credit_grant, credit_debit,
// credit_settle): each takes the account's row lock, so one call is atomic and concurrent calls
// for one user queue up — no overdraw, no double count, whatever runs them.

/** Free credit lasts this long (spec: granted credit expires after 90 days). */
export const GRANT_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;

/** When free credit granted at `at` expires. */
export const grantExpiry = (at: Date = new Date()) => new Date(at.getTime() + GRANT_LIFETIME_MS);

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Adds credit once per idempotency key; returns false when the key was already used.
 * Promotional credit is spent before paid credit; `expiresAt` null never expires.
 */
export async function grantCredit(
  db: Db,
  entry: {
    userId: string;
    amountMicros: bigint;
    type: 'initial_credit' | 'credit' | 'purchase';
    kind: 'promotional' | 'paid';
    description: string;
    idempotencyKey: string;
    expiresAt: Date | null;
  },
): Promise<boolean> {
  if (entry.amountMicros <= 0n) throw new RangeError('A grant must be positive');
  ledgerWrites.inc({ operation: 'grant' });
  const result = await db.execute(sql`select credit_grant(${entry.userId}, ${entry.amountMicros.toString()}::bigint,
    ${entry.type}, ${entry.kind}, ${entry.description}, ${entry.idempotencyKey},
    ${entry.expiresAt?.toISOString() ?? null}::timestamptz) as granted`);
  return rowsOf<{ granted: boolean }>(result)[0]?.granted === true;
}

/**
 * Charges metered usage (a model call, a droplet's hours) once per idempotency key and answers
 * the balance after it. Usage already happened, so it takes what the balance holds: the part
 * beyond it is forgiven — at most one call's cost, as callers check the balance before the next.
 */
export async function chargeUsage(
  db: Db,
  entry: {
    userId: string;
    amountMicros: bigint;
    description: string;
    idempotencyKey: string;
    /** Where it was spent, for the billing history's groups. */
    conversationId: string;
    category: 'llm' | 'droplet';
    subcategory?: 'chat' | 'devops';
    at?: Date;
  },
): Promise<bigint> {
  if (entry.amountMicros < 0n) throw new RangeError('A charge cannot be negative');
  ledgerWrites.inc({ operation: 'charge' });
  const result = await db.execute(sql`select credit_debit(${entry.userId}, ${entry.amountMicros.toString()}::bigint,
    'usage', ${entry.description}, ${entry.idempotencyKey}, ${(entry.at ?? new Date()).toISOString()}::timestamptz,
    ${entry.conversationId}, ${entry.category}, ${entry.subcategory ?? null}) as balance`);
  return BigInt(rowsOf<{ balance: string | number }>(result)[0]?.balance ?? 0);
}

/**
 * Takes credit back once per idempotency key (a refunded purchase) and answers the balance after
 * it; like usage, it takes at most what the balance holds: credit already spent stays spent.
 */
export async function takeBackCredit(
  db: Db,
  entry: { userId: string; amountMicros: bigint; description: string; idempotencyKey: string; at?: Date },
): Promise<bigint> {
  if (entry.amountMicros <= 0n) throw new RangeError('Credit taken back must be positive');
  ledgerWrites.inc({ operation: 'take_back' });
  const result = await db.execute(sql`select credit_debit(${entry.userId}, ${entry.amountMicros.toString()}::bigint,
    'debit', ${entry.description}, ${entry.idempotencyKey}, ${(entry.at ?? new Date()).toISOString()}::timestamptz,
    null, null, null) as balance`);
  return BigInt(rowsOf<{ balance: string | number }>(result)[0]?.balance ?? 0);
}

/** Writes off the user's expired credit now, each lot with its own transaction. */
export async function settleExpiredCredit(db: Db, userId: string, at: Date = new Date()): Promise<void> {
  await db.execute(sql`select credit_settle(${userId}, ${at.toISOString()}::timestamptz)`);
}

/** A purchase the payment provider declined: listed as failed in the history, never counted in the balance. */
export async function recordFailedPurchase(
  db: Db,
  entry: { userId: string; amountMicros: bigint; description: string; idempotencyKey: string },
): Promise<void> {
  ledgerWrites.inc({ operation: 'failed_purchase' });
  await db
    .insert(creditLedger)
    .values({
      userId: entry.userId,
      amountMicros: entry.amountMicros,
      transactionType: 'purchase',
      status: 'failed',
      description: entry.description,
      idempotencyKey: entry.idempotencyKey,
    })
    .onConflictDoNothing();
}
