import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { affiliateCommissions, affiliateLinks, affiliates } from '../../db/schema.ts';
import { NotFound } from '../../shared/domain-errors.ts';
import { accountsWithReferral } from '../auth/index.ts';
import { firstCompletedPurchaseOf, microsToDollars } from '../credits/index.ts';
import { commissionedRevenue, monthStart, windowEnd } from './commissions.ts';
import { LINK_NOT_FOUND, ownLink } from './links.ts';

const sum = (column: typeof affiliateCommissions.amountMicros) => sql<string>`coalesce(sum(${column}), 0)`;

/** A customer's status (spec): Pending until the first payment, Active for 12 months after it, then Inactive. */
function customerStatus(firstPurchase: Date | null, now: Date) {
  if (!firstPurchase) return 'Pending';
  return now < windowEnd(firstPurchase) ? 'Active' : 'Inactive';
}

const AFFILIATE_STATUS: Record<string, string> = { pending: 'Pending', verified: 'Active', rejected: 'Rejected' };

/** What an affiliate sees of their figures; every amount is summed from the commission ledger. */
export function createAffiliateReports(db: Db, deps: { now?: () => number }) {
  const now = () => new Date((deps.now ?? Date.now)());

  const account = accountsWithReferral(db);
  // Qualified by hand: Drizzle leaves columns unqualified in a one-table select, and inside a
  // correlated subquery an unqualified id would be the subquery's own.
  const accountId = sql`${sql.identifier(account._.alias)}.${sql.identifier('id')}`;
  const firstPurchase = firstCompletedPurchaseOf(accountId);

  async function ownedLink(affiliateId: string, linkId: string) {
    const [link] = await db
      .select({ id: affiliateLinks.id, code: affiliateLinks.code })
      .from(affiliateLinks)
      .where(ownLink(affiliateId, linkId));
    if (!link) throw new NotFound(LINK_NOT_FOUND);
    return link;
  }

  return {
    async earnings(affiliateId: string) {
      const at = now();
      const [totals] = await db
        .select({
          total: sum(affiliateCommissions.amountMicros),
          month: sql<string>`coalesce(sum(${affiliateCommissions.amountMicros}) filter (where ${affiliateCommissions.createdAt} >= ${monthStart(at).toISOString()}::timestamptz), 0)`,
        })
        .from(affiliateCommissions)
        .where(eq(affiliateCommissions.affiliateId, affiliateId));
      const revenue = await commissionedRevenue(db, affiliateId, { from: monthStart(at) });
      const customers = await db
        .select({ first: firstPurchase })
        .from(account)
        .innerJoin(affiliateLinks, sql`lower(${affiliateLinks.code}) = lower(${account.affiliateCode})`)
        .where(eq(affiliateLinks.affiliateId, affiliateId));
      return {
        total_earnings: microsToDollars(BigInt(totals?.total ?? 0)),
        current_month_earnings: microsToDollars(BigInt(totals?.month ?? 0)),
        current_month_revenue: microsToDollars(revenue),
        total_referrals: customers.length,
        active_referrals: customers.filter(
          (customer) => customerStatus(customer.first ? new Date(customer.first) : null, at) === 'Active',
        ).length,
      };
    },

    /** Customers who registered through the link, newest first, with what they earned the affiliate. */
    async linkUsers(affiliateId: string, linkId: string) {
      const link = await ownedLink(affiliateId, linkId);
      const rows = await db
        .select({
          id: account.id,
          name: account.fullname,
          email: account.email,
          createdAt: account.createdAt,
          first: firstPurchase,
          commission: sql<string>`(select coalesce(sum(m.amount_micros), 0) from ${affiliateCommissions} m
            where m.user_id = ${accountId} and m.affiliate_id = ${affiliateId} and m.level = 1)`,
        })
        .from(account)
        .where(sql`lower(${account.affiliateCode}) = lower(${link.code})`)
        .orderBy(desc(account.createdAt));
      const at = now();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        email: row.email,
        created_at: row.createdAt.toISOString(),
        status: customerStatus(row.first ? new Date(row.first) : null, at),
        commission: microsToDollars(BigInt(row.commission)),
      }));
    },

    /** Affiliates who registered through the link, with the 3% their customers earned this one. */
    async linkAffiliators(affiliateId: string, linkId: string) {
      await ownedLink(affiliateId, linkId);
      const rows = await db
        .select({
          id: affiliates.id,
          name: affiliates.fullName,
          email: affiliates.email,
          createdAt: affiliates.createdAt,
          status: affiliates.status,
          commission: sql<string>`(select coalesce(sum(m.amount_micros), 0) from ${affiliateCommissions} m
            where m.via_affiliate_id = ${affiliates}.id and m.affiliate_id = ${affiliateId} and m.level = 2)`,
        })
        .from(affiliates)
        .where(eq(affiliates.referredByLinkId, linkId))
        .orderBy(desc(affiliates.createdAt));
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        email: row.email,
        created_at: row.createdAt.toISOString(),
        status: AFFILIATE_STATUS[row.status] ?? row.status,
        commission: microsToDollars(BigInt(row.commission)),
      }));
    },
  };
}
