import { describe, expect, it } from 'vitest';
import { money } from './usd.ts';

describe('money', () => {
  it('uses 4 decimals in metrics and usage rows, 2 in totals, in the reader’s language', () => {
    expect(money.usage(0.12345, 'en')).toBe('$0.1235');
    expect(money.usage(2, 'en')).toBe('$2.0000');
    expect(money.total(12.345, 'en')).toBe('$12.35');
    expect(money.total(0, 'en')).toBe('$0.00');
    // German writes the sign after the figure, with a no-break space.
    expect(money.total(12.5, 'de')).toBe('12,50\u00a0$');
    expect(money.usage(12.5, 'fr')).toBe('12,5000\u00a0$US');
  });

  it('keeps the decimals of a total that is not zero yet would read $0.00', () => {
    expect(money.total(-0.0008, 'en')).toBe('-$0.0008');
    expect(money.total(0.004, 'en')).toBe('$0.004');
    expect(money.total(0.005, 'en')).toBe('$0.01');
  });
});
