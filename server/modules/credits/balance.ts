import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { creditLedger, users } from '../../db/schema.ts';

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
