import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/index.ts';
import { affiliateCommissions, affiliateLinks, affiliates } from '../../db/schema.ts';
import { COMMISSION_MONTHS, COMMISSION_TIERS, SECOND_LEVEL_PERCENT } from '../../../machines/commission-tiers.ts';
import { accountsWithReferral } from '../auth/index.ts';
import { firstCompletedPurchaseAt, MICROS_PER_DOLLAR } from '../credits/index.ts';

// Commissions of public-site spec §9: on every paid purchase of a referred customer during the
// 12 months after that customer's first purchase, the direct affiliate earns the rate of their
// tier for the month, and the affiliate who recruited that affiliate earns 3% of it. One row
// per purchase per level; integer micro-dollars. Free credit is never revenue: only completed
// purchases count.

/** The tiers in micro-dollars of referred revenue in the calendar month (UTC), highest first. */
const TIERS = [...COMMISSION_TIERS].reverse().map((tier) => ({
  from: BigInt(tier.fromDollars) * MICROS_PER_DOLLAR,
  percent: BigInt(tier.percent),
}));
const SECOND_LEVEL = BigInt(SECOND_LEVEL_PERCENT);

/** The rate for a purchase, decided by the month's referred revenue before it. */
export const tierPercent = (revenueBeforeMicros: bigint) =>
  (TIERS.find((tier) => revenueBeforeMicros >= tier.from) ?? { percent: BigInt(COMMISSION_TIERS[0].percent) }).percent;

export const monthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

/** `at` plus 12 calendar months: the end of a customer's commission window. */
export function windowEnd(firstPurchase: Date) {
  const end = new Date(firstPurchase);
  end.setUTCMonth(end.getUTCMonth() + COMMISSION_MONTHS);
  return end;
}

/**
 * An affiliate's revenue in [from, to]: what their own customers paid in purchases that earn them
 * commission, less what was refunded then. The tier and the dashboard's month revenue both count
 * this, so a refund lowers them, and buying through one's own link (which earns nothing) or a
 * customer's purchases after their 12 months never raise an affiliate's rate.
 */
export async function commissionedRevenue(
  db: Db,
  affiliateId: string,
  range: { from: Date; to?: Date; excludingKey?: string },
): Promise<bigint> {
  const [row] = await db
    .select({ revenue: sql<string>`coalesce(sum(${affiliateCommissions.revenueMicros}), 0)` })
    .from(affiliateCommissions)
    .where(
      and(
        eq(affiliateCommissions.affiliateId, affiliateId),
        eq(affiliateCommissions.level, 1),
        sql`${affiliateCommissions.createdAt} >= ${range.from.toISOString()}::timestamptz`,
        range.to === undefined
          ? undefined
          : sql`${affiliateCommissions.createdAt} <= ${range.to.toISOString()}::timestamptz`,
        range.excludingKey === undefined
          ? undefined
          : sql`${affiliateCommissions.idempotencyKey} <> ${range.excludingKey}`,
      ),
    );
  return BigInt(row?.revenue ?? 0);
}

/**
 * Records the commissions of one completed purchase (`purchaseKey`: its ledger idempotency key),
 * once however often it is called. The customer is bound to a link by the code they registered
 * with (codes never change hands, so the binding is permanent); buying through one's own link
 * (the same email as the affiliate) earns nothing.
 */
export async function recordPurchaseCommissions(
  db: Db,
  purchase: { userId: string; purchaseKey: string; revenueMicros: bigint; at: Date },
) {
  // A savepoint when the caller's transaction holds the credit; its own transaction otherwise:
  // the affiliate's lock must last until the commission is written.
  await db.transaction((tx) => recordInTransaction(tx, purchase));
}

const parents = alias(affiliates, 'parent');

async function recordInTransaction(
  db: Db,
  purchase: { userId: string; purchaseKey: string; revenueMicros: bigint; at: Date },
) {
  const account = accountsWithReferral(db);
  const [referral] = await db
    .select({
      linkId: affiliateLinks.id,
      affiliateId: affiliateLinks.affiliateId,
      rejected: sql<boolean>`${affiliates.status} = 'rejected'`,
      parentId: affiliates.parentAffiliateId,
      parentLinkId: affiliates.referredByLinkId,
      // No affiliate earns on their own purchases, at any level.
      selfReferred: sql<boolean>`lower(${affiliates.email}) = lower(${account.email})`,
      parentEarns: sql<boolean>`coalesce(${parents.status} <> 'rejected' and lower(${parents.email}) <> lower(${account.email}), false)`,
    })
    .from(account)
    .innerJoin(affiliateLinks, sql`lower(${affiliateLinks.code}) = lower(${account.affiliateCode})`)
    .innerJoin(affiliates, eq(affiliates.id, affiliateLinks.affiliateId))
    .leftJoin(parents, eq(parents.id, affiliates.parentAffiliateId))
    .where(eq(account.id, purchase.userId));
  // A rejected affiliate's links earn nothing from the rejection on; nor does their recruiter on them.
  if (!referral || referral.selfReferred || referral.rejected) return;

  const firstPurchase = (await firstCompletedPurchaseAt(db, purchase.userId)) ?? purchase.at;
  if (purchase.at >= windowEnd(firstPurchase)) return;

  // One purchase of an affiliate's customers at a time: the month's revenue read here must hold
  // every purchase that came before, or purchases at once near a tier's threshold would each be
  // paid the lower rate. "Before" is the order in which they take this lock.
  await db.select({ id: affiliates.id }).from(affiliates).where(eq(affiliates.id, referral.affiliateId)).for('update');
  const percent = tierPercent(
    await commissionedRevenue(db, referral.affiliateId, {
      from: monthStart(purchase.at),
      excludingKey: purchase.purchaseKey,
    }),
  );
  const rows = [
    {
      affiliateId: referral.affiliateId,
      linkId: referral.linkId,
      userId: purchase.userId,
      viaAffiliateId: null,
      level: 1,
      revenueMicros: purchase.revenueMicros,
      amountMicros: (purchase.revenueMicros * percent) / 100n,
      idempotencyKey: purchase.purchaseKey,
      createdAt: purchase.at,
    },
    ...(referral.parentId && referral.parentEarns
      ? [
          {
            affiliateId: referral.parentId,
            linkId: referral.parentLinkId,
            userId: purchase.userId,
            viaAffiliateId: referral.affiliateId,
            level: 2,
            revenueMicros: purchase.revenueMicros,
            amountMicros: (purchase.revenueMicros * SECOND_LEVEL) / 100n,
            idempotencyKey: purchase.purchaseKey,
            createdAt: purchase.at,
          },
        ]
      : []),
  ];
  await db.insert(affiliateCommissions).values(rows).onConflictDoNothing();
}

/**
 * Reverses the commissions of a refunded purchase in proportion to the refund: one negative row
 * per level that earned, keyed by the refund (`refundKey`), so a refund delivered twice reverses
 * once. Earnings, a link's earnings and a user's commission are sums, so they drop at once.
 */
export async function reversePurchaseCommissions(
  db: Db,
  refund: { purchaseKey: string; refundKey: string; refundedMicros: bigint; at: Date },
) {
  const earned = await db
    .select()
    .from(affiliateCommissions)
    .where(eq(affiliateCommissions.idempotencyKey, refund.purchaseKey));
  if (earned.length === 0) return;
  await db
    .insert(affiliateCommissions)
    .values(
      earned.map((row) => ({
        affiliateId: row.affiliateId,
        linkId: row.linkId,
        userId: row.userId,
        viaAffiliateId: row.viaAffiliateId,
        level: row.level,
        revenueMicros: -refund.refundedMicros,
        // Rounded towards zero, like the commission itself: never more than was earned.
        amountMicros: -((row.amountMicros * refund.refundedMicros) / row.revenueMicros),
        idempotencyKey: refund.refundKey,
        createdAt: refund.at,
      })),
    )
    .onConflictDoNothing();
}
