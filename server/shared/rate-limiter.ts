import { HttpError } from './http-error.ts';

/**
 * Fixed-window counter per key, in memory. Enough for one node; several nodes each
 * enforce their own window, which at worst multiplies the limit by the node count.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt; returns the seconds to wait when the key is over its limit, else 0. */
  hit(key: string): number {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 100_000) this.sweep(now);
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count > this.limit ? Math.ceil((window.resetAt - now) / 1000) : 0;
  }

  private sweep(now: number) {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}

/** Counts one attempt on each limiter (by its key); 429 with Retry-After when any is over its limit. */
export function throttle(limiters: readonly RateLimiter[], keys: readonly string[], what: string) {
  const wait = Math.max(...limiters.map((limiter, i) => limiter.hit(keys[i] ?? '')));
  if (wait > 0)
    throw new HttpError(429, `Too many ${what} attempts. Please try again in ${wait} seconds.`, {
      'retry-after': String(wait),
    });
}
