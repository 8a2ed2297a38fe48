import { describe, expect, it } from 'vitest';
import { microsToDollars, parseDollars } from './index.ts';

describe('dollar amounts', () => {
  it('parses dollars into exact micro-dollars', () => {
    expect(parseDollars('12.5')).toBe(12_500_000n);
    expect(parseDollars('0.000001')).toBe(1n);
    expect(parseDollars('150')).toBe(150_000_000n);
    expect(() => parseDollars('1.0000001')).toThrow(RangeError);
    expect(() => parseDollars('-5')).toThrow(RangeError);
    expect(microsToDollars(12_345_678n)).toBe(12.345678);
  });
});
