import { and, count, desc, eq, isNotNull, isNull, max, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { creditLedger } from '../../db/schema.ts';
import { NotFound } from '../../shared/domain-errors.ts';
import { settleExpiredCredit } from './ledger.ts';
import { microsToDollars } from './money.ts';

// The billing history of spec §2 (profile): usage grouped by conversation — droplet usage, and
// LLM usage split into the devops and chat agents — and the other transactions. Totals are
// summed in integer micro-dollars and turned into dollars once.

type Row = typeof creditLedger.$inferSelect;
type Category = 'llm' | 'droplet';
type Subcategory = 'chat' | 'devops';

/** Rows of a group's bucket shown with it; the rest is paged through the category call. */
const BUCKET_PAGE_SIZE = 10;

const shown = (row: Row) => ({
  id: String(row.id),
  created_at: row.createdAt.toISOString(),
  // Always positive: the type says which way the money went.
  amount: microsToDollars(row.amountMicros < 0n ? -row.amountMicros : row.amountMicros),
  description: row.description,
  transaction_type: row.transactionType as 'initial_credit' | 'credit' | 'debit' | 'purchase' | 'usage',
  status: row.status as 'completed' | 'pending' | 'failed',
});

const pages = (total: number, perPage: number) => Math.ceil(total / perPage);
const newestFirst = [desc(creditLedger.createdAt), desc(creditLedger.id)];

/** One page of the rows matching `where`, their count and (spent) total in micro-dollars. */
async function page(db: Db, where: SQL | undefined, pageNumber: number, perPage: number) {
  const [totals] = await db
    .select({ n: count(), sum: sql<string>`coalesce(sum(${creditLedger.amountMicros}), 0)` })
    .from(creditLedger)
    .where(where);
  const rows = await db
    .select()
    .from(creditLedger)
    .where(where)
    .orderBy(...newestFirst)
    .limit(perPage)
    .offset((pageNumber - 1) * perPage);
  return { n: totals?.n ?? 0, spentMicros: -BigInt(totals?.sum ?? '0'), rows };
}

function usageOf(userId: string, conversationId: string, category: Category, subcategory?: Subcategory) {
  return and(
    eq(creditLedger.userId, userId),
    eq(creditLedger.conversationId, conversationId),
    eq(creditLedger.category, category),
    subcategory ? eq(creditLedger.subcategory, subcategory) : undefined,
  );
}

async function bucket(db: Db, userId: string, conversationId: string, category: Category, subcategory?: Subcategory) {
  const found = await page(db, usageOf(userId, conversationId, category, subcategory), 1, BUCKET_PAGE_SIZE);
  return {
    micros: found.spentMicros,
    view: {
      count: found.n,
      total: microsToDollars(found.spentMicros),
      total_pages: pages(found.n, BUCKET_PAGE_SIZE),
      transactions: found.rows.map(shown),
    },
  };
}

export async function listOtherTransactions(db: Db, userId: string, pageNumber: number, perPage: number) {
  await settleExpiredCredit(db, userId);
  const found = await page(
    db,
    and(eq(creditLedger.userId, userId), isNull(creditLedger.conversationId)),
    pageNumber,
    perPage,
  );
  return { transactions: found.rows.map(shown), total_pages: pages(found.n, perPage) };
}

/** `titlesOf` names the user's conversations among the ids (the conversations module's data). */
export async function listConversationGroups(
  db: Db,
  userId: string,
  pageNumber: number,
  perPage: number,
  titlesOf: (ids: string[]) => Promise<Map<string, string | null>>,
) {
  const spent = and(eq(creditLedger.userId, userId), isNotNull(creditLedger.conversationId));
  const [totals] = await db
    .select({ n: sql<number>`count(distinct ${creditLedger.conversationId})::int` })
    .from(creditLedger)
    .where(spent);
  const groups = await db
    .select({ conversationId: creditLedger.conversationId })
    .from(creditLedger)
    .where(spent)
    .groupBy(creditLedger.conversationId)
    // The conversation charged last first; entries of one millisecond are told apart by the ledger's order.
    .orderBy(desc(max(creditLedger.createdAt)), desc(max(creditLedger.id)))
    .limit(perPage)
    .offset((pageNumber - 1) * perPage);
  const ids = groups.flatMap((group) => (group.conversationId ? [group.conversationId] : []));
  const titles = await titlesOf(ids);
  const conversationGroups = await Promise.all(
    ids.map(async (conversationId) => {
      const [droplet, devops, chat] = await Promise.all([
        bucket(db, userId, conversationId, 'droplet'),
        bucket(db, userId, conversationId, 'llm', 'devops'),
        bucket(db, userId, conversationId, 'llm', 'chat'),
      ]);
      const llmMicros = devops.micros + chat.micros;
      return {
        conversation_id: conversationId,
        // A deleted conversation keeps its costs; its name goes with it.
        title: titles.get(conversationId) ?? null,
        total_cost: microsToDollars(droplet.micros + llmMicros),
        droplet_usage: droplet.view,
        llm_usage: { total: microsToDollars(llmMicros), devops: devops.view, chat: chat.view },
      };
    }),
  );
  return { conversation_groups: conversationGroups, total_pages: pages(totals?.n ?? 0, perPage) };
}

/** `isUsers` tells whether the conversation is the user's (the conversations module's data). */
export async function listCategoryTransactions(
  db: Db,
  userId: string,
  conversationId: string,
  query: { category: Category; subcategory?: Subcategory; page: number; perPage: number },
  isUsers: (conversationId: string) => Promise<boolean>,
) {
  // Subcategories split LLM usage only.
  const subcategory = query.category === 'llm' ? query.subcategory : undefined;
  const found = await page(db, usageOf(userId, conversationId, query.category, subcategory), query.page, query.perPage);
  if (found.n === 0) {
    const owned = await isUsers(conversationId);
    const [spentIn] = await db
      .select({ n: count() })
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, userId), eq(creditLedger.conversationId, conversationId)));
    if (!owned && !spentIn?.n) throw new NotFound('Conversation not found');
  }
  return {
    transactions: found.rows.map(shown),
    total_pages: pages(found.n, query.perPage),
    total: microsToDollars(found.spentMicros),
  };
}
