// The commission tiers as the affiliate pages show them: the one definition's
// (machines/commission-tiers.ts), derived from the month's referred revenue (dollars).

import { COMMISSION_TIERS, commissionTierOf, type CommissionTier } from '../../../machines/commission-tiers.ts';
import { usd } from '../../rules/usd.ts';

export const TIERS = COMMISSION_TIERS;
export type Tier = CommissionTier;
export const tierOf = commissionTierOf;

/** The tier after `tier`, if any. */
const nextTier = (tier: Tier): Tier | undefined => (COMMISSION_TIERS as readonly Tier[])[tier.number];

/**
 * How far the month's revenue has come towards the next tier: a fraction of the current tier's
 * span (tier 2 from 50,000 to 250,000), and what is still missing; null at tier 3 ('Max Tier').
 */
export function progressToNextTier(revenue: number): { fraction: number; missing: number; next: Tier } | null {
  const tier = tierOf(revenue);
  const next = nextTier(tier);
  if (!next) return null;
  const fraction = (revenue - tier.fromDollars) / (next.fromDollars - tier.fromDollars);
  return { fraction: Math.min(1, Math.max(0, fraction)), missing: next.fromDollars - revenue, next };
}

/** Whole percent of the way, never 100 before the next tier is reached (99.99% reads 99). */
export const percentOfWay = (fraction: number) => Math.floor(fraction * 100);

/** A tier's range of monthly revenue, with the thresholds in the reader's money format (whole dollars). */
export function tierRange(tier: Tier, language: string): { from: string; to: string | null } {
  const whole = (amount: number) => usd(amount, language, 0, 0);
  const next = nextTier(tier);
  return { from: whole(tier.fromDollars), to: next ? whole(next.fromDollars) : null };
}

/** Dollars with 2 decimals, as the dashboard shows earnings. */
export const dollars = (amount: number, language: string) => usd(amount, language, 2, 2);
