import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  affiliateClicks,
  affiliateCommissions,
  creditAccounts,
  creditLedger,
  creditLots,
  events,
} from '../../server/db/schema.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';
import { mailedLink } from '../support/mail.ts';
import { saveTestCard, startServer, type RunningServer } from '../support/server.ts';

// A bounded soak (loopback only): the server process is killed (SIGKILL, nothing shut down) at
// random moments while customers buy credits, visitors click a referral link and an agent runs
// (within a second of its first step), then started again on the same data — SOAK_ROUNDS times
// (3 by default). Afterwards nothing
// the server acknowledged is lost and nothing is counted twice: every acknowledged purchase is in
// the ledger exactly once with exactly one commission, a purchase the crash cut off is there with
// its commission or not at all, every acknowledged click is stored once, each conversation's
// events are numbered without gap or repeat, and every balance is the sum of its ledger and its lots.

const ROUNDS = Number(process.env.SOAK_ROUNDS ?? 3);
const PASSWORD = 'correct horse battery';
const CUSTOMERS = 3;

type Outcome = 'acknowledged' | 'unknown';
interface Purchase {
  customer: number;
  cents: number;
  outcome: Outcome;
}

const randomBetween = (low: number, high: number) => low + Math.random() * (high - low);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('kill -9 soak: purchases, clicks, commissions and agent runs', () => {
  const llm = new FakeLlm('gpt-4o');
  let server: RunningServer;

  async function api(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null };
  }

  async function ok(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
    const answer = await api(method, path, options);
    if (answer.status !== 200)
      throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body ?? {};
  }

  beforeAll(async () => {
    server = await startServer({
      mode: 'saas',
      env: {
        LLM_PROVIDER: 'openai-compatible',
        LLM_BASE_URL: await llm.start(),
        LLM_MODEL: llm.model,
        LLM_API_KEY: 'x',
        AUTH_RATE_LIMIT_PER_IP: '100000',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.destroy();
    await llm.stop();
  });

  it(
    `loses nothing acknowledged and counts nothing twice over ${ROUNDS} crashes`,
    { timeout: 60_000 + ROUNDS * 60_000 },
    async () => {
      // An affiliate with a link; customers it referred, each with a saved card, verified, active and credited.
      const code = `soak-${Date.now()}`;
      const affiliateEmail = `${code}@partners.example`;
      await ok('POST', '/api/affiliate/register', {
        body: { full_name: 'Soak Partner', email: affiliateEmail, password: PASSWORD, whatsapp: '+1 2025550123' },
      });
      expect((await server.admin('affiliate:verify', affiliateEmail)).code).toBe(0);
      const affiliate = await ok('POST', '/api/affiliate/login', {
        body: { email: affiliateEmail, password: PASSWORD },
      });
      await ok('POST', '/api/affiliate/links', {
        token: affiliate.access_token as string,
        body: { name: 'Soak', code },
      });

      const customers: { email: string; token: string }[] = [];
      for (let i = 0; i < CUSTOMERS; i++) {
        const email = `customer.${i}.${code}@acme-e2e.dev`;
        await ok('POST', '/api/auth/register', {
          body: { name: `Customer ${i}`, email, password: PASSWORD, is_personal: false, affiliate_code: code },
        });
        const token = (await ok('POST', '/api/auth/login', { body: { email, password: PASSWORD } }))
          .access_token as string;
        await saveTestCard(server, token, `Customer ${i}`);
        const verification = new URLSearchParams((await mailedLink(server, email)).split('?')[1]).get('token');
        await ok('POST', '/api/auth/verify-email', { body: { token: verification } });
        expect((await server.admin('activate-user', email)).code).toBe(0);
        customers.push({ email, token });
      }

      const purchases: Purchase[] = [];
      const clicks = { sent: 0, acknowledged: 0 };
      const conversations = new Set<string>();
      // Each purchase has an amount of its own ($5 and some cents), so the ledger says which it was.
      let nextCents = 500;

      for (let round = 0; round < ROUNDS; round++) {
        let running = true;
        const workers: Promise<void>[] = [];
        // Purchases: each customer buys again and again.
        for (let customer = 0; customer < CUSTOMERS; customer++)
          workers.push(
            (async () => {
              while (running) {
                const purchase: Purchase = { customer, cents: nextCents++, outcome: 'unknown' };
                purchases.push(purchase);
                const answer = await api('POST', '/api/auth/purchase-credits', {
                  token: customers[customer]?.token,
                  body: { amount: purchase.cents / 100 },
                }).catch(() => null);
                if (answer?.status === 200) purchase.outcome = 'acknowledged';
                else if (answer)
                  throw new Error(`a purchase answered ${answer.status}: ${JSON.stringify(answer.body)}`);
              }
            })(),
          );
        // Clicks: a new visitor (browser) each time.
        workers.push(
          (async () => {
            while (running) {
              const visitor = clicks.sent++;
              const answer = await fetch(`${server.url}/api/affiliate/click`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'user-agent': `Mozilla/5.0 soak-visitor-${visitor}` },
                body: JSON.stringify({ code, unique: true }),
              }).catch(() => null);
              if (answer?.status === 200) clicks.acknowledged++;
              else if (answer) throw new Error(`a click answered ${answer.status}`);
            }
          })(),
        );
        // Agent runs: a conversation a round, thinking step after step (each step a charged model call).
        llm.enqueue(
          reply.text('Soak run', { when: withoutTools }),
          ...Array.from({ length: 200 }, (_, step) =>
            reply.toolCall('think', { thought: `step ${step}` }, { when: withTools, delayMs: 5 }),
          ),
        );
        const created = await api('POST', '/api/conversations', {
          token: customers[round % CUSTOMERS]?.token,
          body: { initial_user_msg: `Soak round ${round}` },
        });
        expect(created.status).toBe(200);
        const conversationId = created.body?.conversation_id as string;
        conversations.add(conversationId);

        // The kill lands while the agent runs: once it has taken a step, within the next second.
        const owner = customers[round % CUSTOMERS]?.token;
        for (let waited = 0; waited < 60_000; waited += 100) {
          const history = await api('GET', `/api/conversations/${conversationId}/events?limit=100`, { token: owner });
          const steps = ((history.body?.events ?? []) as { action?: string; source?: string }[]).filter(
            (event) => event.source === 'agent' && event.action === 'think',
          );
          if (steps.length > 0) break;
          await sleep(100);
        }
        await sleep(randomBetween(0, 1_000));
        await server.crash();
        running = false;
        await Promise.all(workers);
        await server.restart();
      }
      await server.stop();

      // What the data holds now.
      const database = await server.database.open();
      const { db } = database;
      try {
        const ledger = await db
          .select({ userId: creditLedger.userId, amount: creditLedger.amountMicros, key: creditLedger.idempotencyKey })
          .from(creditLedger)
          .where(and(eq(creditLedger.transactionType, 'purchase'), eq(creditLedger.status, 'completed')));
        const commissions = await db
          .select({ key: affiliateCommissions.idempotencyKey, revenue: affiliateCommissions.revenueMicros })
          .from(affiliateCommissions)
          .where(eq(affiliateCommissions.level, 1));

        const acknowledged = purchases.filter((purchase) => purchase.outcome === 'acknowledged');
        expect(acknowledged.length).toBeGreaterThan(ROUNDS);
        const bought = new Map<bigint, number>();
        for (const row of ledger) bought.set(row.amount, (bought.get(row.amount) ?? 0) + 1);
        // Nothing twice; every acknowledged purchase there.
        for (const purchase of purchases) {
          const found = bought.get(BigInt(purchase.cents) * 10_000n) ?? 0;
          expect(found).toBeLessThanOrEqual(1);
          if (purchase.outcome === 'acknowledged') expect(found, `$${purchase.cents / 100}`).toBe(1);
        }
        expect(ledger.length).toBeLessThanOrEqual(purchases.length);
        // Each purchase with exactly one commission on its revenue, and no commission without a purchase.
        const commissionKeys = commissions.map((row) => row.key).sort();
        expect(commissionKeys).toEqual(ledger.map((row) => row.key).sort());
        const revenueOf = new Map(ledger.map((row) => [row.key, row.amount]));
        for (const row of commissions) expect(row.revenue).toBe(revenueOf.get(row.key));

        // Clicks: every acknowledged one stored once (a cut-off one at most once).
        const [stored] = await db.select({ count: sql<number>`count(*)::int` }).from(affiliateClicks);
        expect(stored?.count).toBeGreaterThanOrEqual(clicks.acknowledged);
        expect(stored?.count).toBeLessThanOrEqual(clicks.sent);
        const [visitors] = await db
          .select({ count: sql<number>`count(distinct ${affiliateClicks.visitor})::int` })
          .from(affiliateClicks);
        expect(visitors?.count).toBe(stored?.count);

        // Events: numbered 0, 1, 2, … in each conversation, none missing, none twice.
        for (const conversationId of conversations) {
          const ids = (
            await db
              .select({ id: events.id })
              .from(events)
              .where(eq(events.conversationId, conversationId))
              .orderBy(events.id)
          ).map((row) => row.id);
          expect(ids.length).toBeGreaterThan(0);
          expect(ids).toEqual(ids.map((_, index) => index));
        }

        // Balances: the sum of the completed ledger entries, and of the lots' remainders.
        const sums = await db.execute(sql`
        select a.user_id, a.balance_micros::text as balance,
          (select coalesce(sum(l.amount_micros), 0)::text from ${creditLedger} l where l.user_id = a.user_id and l.status = 'completed') as ledger,
          (select coalesce(sum(o.remaining_micros), 0)::text from ${creditLots} o where o.user_id = a.user_id) as lots
        from ${creditAccounts} a`);
        const rows = (sums as unknown as { rows: { balance: string; ledger: string; lots: string }[] }).rows;
        expect(rows.length).toBeGreaterThanOrEqual(CUSTOMERS);
        for (const row of rows) expect([row.ledger, row.lots]).toEqual([row.balance, row.balance]);
        // The model calls the agents made were charged (usage is in the ledger).
        const [usage] = await db
          .select({ count: sql<number>`count(*)::int` })
          .from(creditLedger)
          .where(eq(creditLedger.transactionType, 'usage'));
        expect(usage?.count).toBeGreaterThan(0);
        console.log(
          `soak: ${ROUNDS} crashes; purchases ${acknowledged.length} acknowledged of ${purchases.length} sent, ${ledger.length} in the ledger; clicks ${clicks.acknowledged} acknowledged of ${clicks.sent} sent, ${stored?.count} stored; ${conversations.size} conversations; ${usage?.count} charged model calls`,
        );
      } finally {
        await database.close();
      }
    },
  );
});
