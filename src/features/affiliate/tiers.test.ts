import { describe, expect, it } from 'vitest';
import { dollars, percentOfWay, progressToNextTier, tierOf, tierRange, TIERS } from './tiers.ts';

describe('commission tiers', () => {
  it('are Starter below $50,000, Growth from $50,000 and Scale from $250,000 of the month’s revenue', () => {
    expect(tierOf(0)).toMatchObject({ number: 1, key: 'starter', percent: 10 });
    expect(tierOf(49_999.99)).toMatchObject({ number: 1 });
    expect(tierOf(50_000)).toMatchObject({ number: 2, key: 'growth', percent: 15 });
    expect(tierOf(249_999.99)).toMatchObject({ number: 2 });
    expect(tierOf(250_000)).toMatchObject({ number: 3, key: 'scale', percent: 20 });
  });

  it('measure progress within the current tier’s span, tier 2 from 50,000 to 250,000, and none at tier 3', () => {
    expect(progressToNextTier(25_000)).toMatchObject({ fraction: 0.5, missing: 25_000, next: { number: 2 } });
    expect(progressToNextTier(50_000)).toMatchObject({ fraction: 0, missing: 200_000, next: { number: 3 } });
    expect(progressToNextTier(150_000)).toMatchObject({ fraction: 0.5, missing: 100_000 });
    expect(progressToNextTier(250_000)).toBeNull();
    expect(progressToNextTier(1_000_000)).toBeNull();
  });

  it('give their ranges from each threshold on, in the reader’s money format', () => {
    expect(TIERS.map((tier) => tierRange(tier, 'en'))).toEqual([
      { from: '$0', to: '$50,000' },
      { from: '$50,000', to: '$250,000' },
      { from: '$250,000', to: null },
    ]);
    // Intl puts a no-break space before the sign in German.
    expect(tierRange(TIERS[1], 'de')).toEqual({ from: '50.000\u00a0$', to: '250.000\u00a0$' });
  });

  it('report progress in whole percent that reach 100 only at the next tier', () => {
    expect(percentOfWay(progressToNextTier(49_995)?.fraction ?? 1)).toBe(99);
    expect(percentOfWay(progressToNextTier(50_000)?.fraction ?? 1)).toBe(0);
    expect(percentOfWay(1)).toBe(100);
  });

  it('show money with 2 decimals', () => {
    expect(dollars(12.5, 'en')).toBe('$12.50');
    expect(dollars(0, 'en')).toBe('$0.00');
    expect(dollars(1234.567, 'en')).toBe('$1,234.57');
  });
});
