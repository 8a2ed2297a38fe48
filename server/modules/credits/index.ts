import type { Db } from '../../db/index.ts';
import { creditLedger } from '../../db/schema.ts';
import { balanceMicros } from './balance.ts';
import { MICROS_PER_DOLLAR } from './money.ts';

export { MICROS_PER_DOLLAR, microsToDollars } from './money.ts';
export { balanceMicros, userBalanceMicros } from './balance.ts';
export { billingHandlers } from './history.ts';

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
  entry: {
    userId: string;
    amountMicros: bigint;
    description: string;
    idempotencyKey: string;
    /** Where it was spent, for the billing history's groups. */
    conversationId: string;
    category: 'llm' | 'droplet';
    subcategory?: 'chat' | 'devops';
  },
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
        conversationId: entry.conversationId,
        category: entry.category,
        subcategory: entry.subcategory ?? null,
      })
      .onConflictDoNothing();
  return balanceMicros(db, entry.userId);
}
