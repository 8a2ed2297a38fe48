import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { creditLedger, users } from '../../db/schema.ts';

export const MICROS_PER_DOLLAR = 1_000_000n;

/** Dollars for the API, from integer micro-dollars (exact to the micro-dollar). */
export const microsToDollars = (micros: bigint): number => Number(micros) / Number(MICROS_PER_DOLLAR);

/**
 * The balance in micro-dollars of the `users` row being selected, as a scalar subquery.
 * Written with qualified names: Drizzle leaves columns unqualified in a one-table select,
 * which would bind `id` to the ledger's own column inside the subquery.
 */
export function userBalanceMicros(): SQL<string> {
  return sql<string>`(select coalesce(sum(ledger.amount_micros), 0) from ${creditLedger} ledger
    where ledger.user_id = ${users}.id and ledger.status = 'completed')`;
}

/** Sum of the user's completed ledger entries, in micro-dollars. */
export async function balanceMicros(db: Db, userId: string): Promise<bigint> {
  const [row] = await db.select({ total: userBalanceMicros() }).from(users).where(eq(users.id, userId));
  return BigInt(row?.total ?? 0);
}

/** Adds credit once per idempotency key; returns false when the key was already used. */
export async function grantCredit(
  db: Db,
  entry: {
    userId: string;
    amountMicros: bigint;
    type: 'initial_credit' | 'credit';
    description: string;
    idempotencyKey: string;
  },
): Promise<boolean> {
  if (entry.amountMicros <= 0n) throw new RangeError('A grant must be positive');
  const inserted = await db
    .insert(creditLedger)
    .values({
      userId: entry.userId,
      amountMicros: entry.amountMicros,
      transactionType: entry.type,
      description: entry.description,
      idempotencyKey: entry.idempotencyKey,
    })
    .onConflictDoNothing()
    .returning({ id: creditLedger.id });
  return inserted.length === 1;
}

/** Parses a dollar amount such as "12.5" into micro-dollars without floating point. */
export function parseDollars(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) throw new RangeError(`"${text}" is not an amount in dollars (up to 6 decimals)`);
  return BigInt(match[1] ?? '0') * MICROS_PER_DOLLAR + BigInt((match[2] ?? '').padEnd(6, '0'));
}

/**
 * Charges metered usage (a model call) once per idempotency key and answers the balance
 * after it. Usage already happened, so it is recorded even when it takes the balance below
 * zero; callers check the balance before the next call.
 */
export async function chargeUsage(
  db: Db,
  entry: { userId: string; amountMicros: bigint; description: string; idempotencyKey: string },
): Promise<bigint> {
  if (entry.amountMicros < 0n) throw new RangeError('A charge cannot be negative');
  if (entry.amountMicros > 0n)
    await db
      .insert(creditLedger)
      .values({
        userId: entry.userId,
        amountMicros: -entry.amountMicros,
        transactionType: 'usage',
        description: entry.description,
        idempotencyKey: entry.idempotencyKey,
      })
      .onConflictDoNothing();
  return balanceMicros(db, entry.userId);
}
