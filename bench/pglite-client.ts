import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { schema, type Db } from '../server/db/index.ts';
import { PGLITE_OPTIONS } from '../server/db/pglite-options.ts';
import { clientForDrizzle } from '../server/db/pglite-client.ts';
import { conversations, users } from '../server/db/schema.ts';
import { createEventStore } from '../server/modules/conversations/events.ts';
import { chargeUsage, grantCredit } from '../server/modules/credits/index.ts';
import { createTestDatabase } from '../tests/support/database.ts';
import type { BenchResult } from './result.ts';
import { quantile, round } from './stats.ts';

const HISTORY = 1_000;
const PAGE = 50;
/** One round: what a user's open conversation asks of the database while its agent works. */
const PAGE_READS = 100;
const DEBITS = 100;
const ROUNDS = 7;

function event(i: number) {
  return {
    source: i % 2 ? 'agent' : 'user',
    action: 'message',
    message: `history message ${i}`,
    args: { content: `history message ${i}: ${'words '.repeat(i % 40)}` },
  };
}

async function seed(db: Db) {
  const userId = randomUUID();
  const conversationId = randomUUID();
  await db.insert(users).values({ id: userId, fullname: 'Bench', email: `${userId}@bench.example` });
  await grantCredit(db, {
    userId,
    amountMicros: 1_000_000_000n,
    type: 'credit',
    kind: 'promotional',
    description: 'bench',
    idempotencyKey: 'bench',
    expiresAt: null,
  });
  await db.insert(conversations).values({ id: conversationId, userId, title: 'Bench' });
  const store = createEventStore(db);
  for (let i = 0; i < HISTORY; i += 100)
    await store.append(
      conversationId,
      Array.from({ length: 100 }, (_, n) => event(i + n) as never),
    );
  return { userId, conversationId };
}

/** One round's rates: newest-first pages of the history, then usage debits, each per second. */
async function measureRound(db: Db, seeded: { userId: string; conversationId: string }, label: string, n: number) {
  const store = createEventStore(db);
  let started = performance.now();
  for (let i = 0; i < PAGE_READS; i++) {
    const page = await store.page(seeded.conversationId, HISTORY - (i % 10) * PAGE, PAGE);
    if (page.events.length !== PAGE) throw new Error(`a page held ${page.events.length} events`);
  }
  const pages = PAGE_READS / ((performance.now() - started) / 1000);
  started = performance.now();
  for (let i = 0; i < DEBITS; i++)
    await chargeUsage(db, {
      userId: seeded.userId,
      amountMicros: 1_234n,
      description: 'bench',
      idempotencyKey: `${label}-${n}-${i}`,
      conversationId: seeded.conversationId,
      category: 'llm',
      subcategory: 'chat',
    });
  return { pages, debits: DEBITS / ((performance.now() - started) / 1000) };
}

/**
 * drizzle's first-party PGlite driver against server/db/pglite-client.ts on one embedded
 * database, rounds alternating so both see the same machine: pages of a 1,000-event
 * conversation (as GET …/events answers them) and usage debits (as the agent's calls make them).
 */
export async function benchPgliteClient(): Promise<BenchResult[]> {
  const database = await createTestDatabase(null);
  const pg = await PGlite.create(path.join(database.dataDir, 'pglite'), PGLITE_OPTIONS);
  try {
    const clients: Record<string, Db> = {
      "drizzle's PGlite driver": drizzle({ client: pg, schema }) as unknown as Db,
      'hand-written wire client': drizzle({
        client: clientForDrizzle(pg) as unknown as PGlite,
        schema,
      }) as unknown as Db,
    };
    const seeded = await seed(Object.values(clients)[0]!);
    const rates = new Map(
      Object.keys(clients).map((label) => [label, { pages: [] as number[], debits: [] as number[] }]),
    );
    // The first round of each warms up (compiles, fills the statement cache) and is not counted.
    for (let n = 0; n <= ROUNDS; n++)
      for (const [label, db] of Object.entries(clients)) {
        const rate = await measureRound(db, seeded, label, n);
        if (n === 0) continue;
        rates.get(label)!.pages.push(rate.pages);
        rates.get(label)!.debits.push(rate.debits);
      }
    const median = (label: string, load: 'pages' | 'debits') => quantile(rates.get(label)![load], 0.5);
    const [driver, wire] = Object.keys(clients) as [string, string];
    const loads = [
      ['pages', `GET …/events pages of ${PAGE} (of ${HISTORY} events)`, 'pages/s'],
      ['debits', 'usage debits, one account', 'debits/s'],
    ] as const;
    return loads.flatMap(([load, what, unit]) => {
      const name = `${what}, PGlite, median of ${ROUNDS} alternating rounds`;
      return [
        { name: `${name}, ${driver}`, metric: 'per second', value: round(median(driver, load), 0), unit },
        { name: `${name}, ${wire}`, metric: 'per second', value: round(median(wire, load), 0), unit },
        {
          name: `${name}, wire client ÷ driver`,
          metric: 'ratio (same run)',
          value: round(median(wire, load) / median(driver, load), 2),
          unit: '×',
          target: 'keep the client at ≥ 1.5×',
        },
      ];
    });
  } finally {
    await pg.close();
    await database.destroy();
  }
}
