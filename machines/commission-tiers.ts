// The commission tiers of public-site spec §4 and §9, defined once: the server pays by them (in
// micro-dollars, server/modules/affiliate/commissions.ts) and the affiliate pages show them.
// A tier applies from its threshold on: the month's referred revenue before a purchase of
// exactly $50,000 is tier 2 (§4; §9's "$50,001" contradicts it, and §4 is followed).

export const COMMISSION_TIERS = [
  { number: 1, key: 'starter', percent: 10, fromDollars: 0 },
  { number: 2, key: 'growth', percent: 15, fromDollars: 50_000 },
  { number: 3, key: 'scale', percent: 20, fromDollars: 250_000 },
] as const;

export type CommissionTier = (typeof COMMISSION_TIERS)[number];

/** What the recruiting affiliate earns of a second-level customer's purchase. */
export const SECOND_LEVEL_PERCENT = 3;
/** Months after a customer's first purchase during which their purchases earn commission. */
export const COMMISSION_MONTHS = 12;

/** The tier for a month's referred revenue so far (dollars). */
export function commissionTierOf(revenueDollars: number): CommissionTier {
  return [...COMMISSION_TIERS].reverse().find((tier) => revenueDollars >= tier.fromDollars) ?? COMMISSION_TIERS[0];
}
