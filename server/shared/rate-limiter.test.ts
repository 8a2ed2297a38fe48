import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.ts';

describe('RateLimiter', () => {
  it('allows the limit, refuses the next with the wait, and opens a new window', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 10_000, () => now);
    expect(limiter.hit('a')).toBe(0);
    expect(limiter.hit('a')).toBe(0);
    now = 2_500;
    expect(limiter.hit('a')).toBe(8);
    expect(limiter.hit('b')).toBe(0);
    now = 10_000;
    expect(limiter.hit('a')).toBe(0);
  });
});
