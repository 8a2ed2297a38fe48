import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { creditAccounts, creditLots } from '../../db/schema.ts';

/**
 * The spendable balance in micro-dollars of the user whose id is `userId` (the caller's column,
 * written qualified: Drizzle leaves columns unqualified in a one-table select), as a scalar
 * subquery: the account's balance less its lots past expiry that no debit has written off yet
 * (a read does not write; the next debit or history read does).
 */
export function userBalanceMicros(userId: SQL, at?: Date): SQL<string> {
  // The database's clock unless told: a prepared statement must not freeze the time it was built.
  const time = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  return sql<string>`coalesce((select account.balance_micros - coalesce((select sum(lot.remaining_micros)
      from ${creditLots} lot where lot.user_id = account.user_id and lot.remaining_micros > 0
      and lot.expires_at <= ${time}), 0)
    from ${creditAccounts} account where account.user_id = ${userId}), 0)`;
}

/** The user's spendable balance in micro-dollars (at `at`, else now); 0 without an account. */
export async function balanceMicros(db: Db, userId: string, at?: Date): Promise<bigint> {
  const [row] = await db
    .select({ total: userBalanceMicros(sql`${creditAccounts}.user_id`, at) })
    .from(creditAccounts)
    .where(eq(creditAccounts.userId, userId));
  return BigInt(row?.total ?? 0);
}

/**
 * The bus topic on which a change of a user's balance is announced (the message is the user's
 * id), on every node: that user's open sockets are sent the new balance.
 */
export const BALANCE_CHANGED = 'balance';
