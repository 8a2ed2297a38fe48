// The commission tiers of public-site spec §4 and §9, derived from the month's referred revenue (dollars).

import { usd } from '../../rules/usd.ts';

export const TIERS = [
  { number: 1, key: 'starter', rate: 10, from: 0 },
  { number: 2, key: 'growth', rate: 15, from: 50_000 },
  { number: 3, key: 'scale', rate: 20, from: 250_000 },
] as const;

export type Tier = (typeof TIERS)[number];

export function tierOf(revenue: number): Tier {
  return [...TIERS].reverse().find((tier) => revenue >= tier.from) ?? TIERS[0];
}

/**
 * How far the month's revenue has come towards the next tier: a fraction of the current tier's
 * span (tier 2 from 50,000 to 250,000), and what is still missing; null at tier 3 ('Max Tier').
 */
export function progressToNextTier(revenue: number): { fraction: number; missing: number; next: Tier } | null {
  const tier = tierOf(revenue);
  const next: Tier | undefined = (TIERS as readonly Tier[])[tier.number];
  if (!next) return null;
  const fraction = (revenue - tier.from) / (next.from - tier.from);
  return { fraction: Math.min(1, Math.max(0, fraction)), missing: next.from - revenue, next };
}

/** Dollars with 2 decimals, as the dashboard shows earnings. */
export const dollars = (amount: number, language: string) => usd(amount, language, 2, 2);
