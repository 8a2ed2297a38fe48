import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../server/db/index.ts';
import { creditAccounts, creditLedger, creditLots, users } from '../server/db/schema.ts';
import { chargeUsage, grantCredit } from '../server/modules/credits/index.ts';
import { createTestDatabase } from '../tests/support/database.ts';
import type { BenchResult } from './result.ts';
import { round } from './stats.ts';
import { POSTGRES_URL } from './databases.ts';

const DEBITS = 5000;
/** Callers at once: more than the pool's ten connections, so debits queue as a busy server's would. */
const CONCURRENCY = 64;

async function newAccount(db: Db) {
  const id = randomUUID();
  await db.insert(users).values({ id, fullname: 'Bench', email: `${id}@bench.example` });
  await grantCredit(db, {
    userId: id,
    amountMicros: 1_000_000_000n,
    type: 'credit',
    kind: 'promotional',
    description: 'bench',
    idempotencyKey: 'bench',
    expiresAt: null,
  });
  return id;
}

/** Throws unless the ledger's sum, the account's balance and its lots' remainders agree. */
async function checkNoDrift(db: Db, userId: string) {
  const one = async (query: Promise<{ sum: string }[]>) => BigInt((await query)[0]?.sum ?? 0);
  const ledger = await one(
    db
      .select({ sum: sql<string>`coalesce(sum(amount_micros), 0)` })
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, userId), eq(creditLedger.status, 'completed'))),
  );
  const account = await one(
    db
      .select({ sum: sql<string>`balance_micros::text` })
      .from(creditAccounts)
      .where(eq(creditAccounts.userId, userId)),
  );
  const lots = await one(
    db
      .select({ sum: sql<string>`coalesce(sum(remaining_micros), 0)` })
      .from(creditLots)
      .where(eq(creditLots.userId, userId)),
  );
  if (ledger !== account || account !== lots)
    throw new Error(`drift: ledger ${ledger}, account ${account}, lots ${lots}`);
  return account;
}

/** DEBITS usage charges of 1,234 micro-dollars by CONCURRENCY callers, spread over `accounts` accounts. */
async function measure(label: string, serverUrl: string | null, accounts: number): Promise<BenchResult[]> {
  const database = await createTestDatabase(serverUrl);
  const opened = await database.open();
  try {
    const ids = await Promise.all(Array.from({ length: accounts }, () => newAccount(opened.db)));
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let n = next++; n < DEBITS; n = next++)
          await chargeUsage(opened.db, {
            userId: ids[n % accounts] as string,
            amountMicros: 1_234n,
            description: 'bench',
            idempotencyKey: `debit-${n}`,
            conversationId: 'bench',
            category: 'llm',
            subcategory: 'chat',
          });
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    let left = 0n;
    for (const id of ids) left += await checkNoDrift(opened.db, id);
    const spent = BigInt(accounts) * 1_000_000_000n - left;
    if (spent !== BigInt(DEBITS) * 1_234n) throw new Error(`spent ${spent} micro-dollars, expected ${DEBITS * 1234}`);
    const name = `${DEBITS} concurrent usage debits, ${accounts === 1 ? 'one account' : `${accounts} accounts`}, ${label}`;
    return [
      {
        name,
        metric: 'debits per second (balances exact)',
        value: round(DEBITS / seconds, 0),
        unit: 'debits/s',
        // One account's debits queue on its row lock, each held until its commit is on disk: that
        // figure is bound by the disk's flush time, and one user's agent makes a few per second.
        ...(label === 'PostgreSQL' && accounts > 1 && { target: '≥ 2,000 debits/s' }),
      },
    ];
  } finally {
    await opened.close();
    await database.destroy();
  }
}

/** The ledger's write path under contention: every debit takes its account's row lock. */
export async function benchLedgerDebits(): Promise<BenchResult[]> {
  return [
    ...(await measure('PGlite', null, 1)),
    ...(await measure('PGlite', null, 50)),
    ...(await measure('PostgreSQL', POSTGRES_URL, 1)),
    ...(await measure('PostgreSQL', POSTGRES_URL, 50)),
  ];
}
