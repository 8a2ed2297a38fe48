import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { creditLedger } from '../../db/schema.ts';

/** Ledger rows of completed purchases, with `more` conditions. */
const completedPurchases = (...more: SQL[]) =>
  and(eq(creditLedger.transactionType, 'purchase'), eq(creditLedger.status, 'completed'), ...more);

/**
 * The completed purchase credited under `idempotencyKey`, its row locked until the caller's
 * transaction ends (refunds of one purchase are told apart one at a time); undefined when none.
 */
export async function lockCompletedPurchase(tx: Db, idempotencyKey: string) {
  const [purchase] = await tx
    .select({ userId: creditLedger.userId, amountMicros: creditLedger.amountMicros })
    .from(creditLedger)
    .where(completedPurchases(eq(creditLedger.idempotencyKey, idempotencyKey)))
    .for('update');
  return purchase;
}

/** A user's completed purchases, newest first, by their idempotency key. */
export async function completedPurchasesOf(db: Db, userId: string) {
  return db
    .select({ key: creditLedger.idempotencyKey, amountMicros: creditLedger.amountMicros, at: creditLedger.createdAt })
    .from(creditLedger)
    .where(completedPurchases(eq(creditLedger.userId, userId)))
    .orderBy(desc(creditLedger.createdAt));
}

/** When the user's first completed purchase was made, null before it. */
export async function firstCompletedPurchaseAt(db: Db, userId: string): Promise<Date | null> {
  const [first] = await db
    .select({ at: sql<string | Date | null>`min(${creditLedger.createdAt})` })
    .from(creditLedger)
    .where(completedPurchases(eq(creditLedger.userId, userId)));
  return first?.at ? new Date(first.at) : null;
}

/**
 * When the user whose id is `userId` (the caller's column, written qualified) made their first
 * completed purchase, as a scalar subquery of the caller's statement; null before it.
 */
export const firstCompletedPurchaseOf = (userId: SQL) =>
  sql<string | null>`(select min(l.created_at) from ${creditLedger} l
    where l.user_id = ${userId} and l.transaction_type = 'purchase' and l.status = 'completed')`;
