import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../../db/index.ts';
import { rateLimits } from '../../db/schema.ts';
import { RateLimited } from '../../shared/domain-errors.ts';

/**
 * A fixed-window count of attempts per key (an address, an address and an email), kept in the
 * database by rate-limiter-flexible: every node sharing it counts the same attempts, and what is
 * counted costs the server no memory (expired rows are deleted an hour after their window).
 */
export class RateLimiter {
  private readonly limiter: RateLimiterDrizzle;

  constructor(db: Db, options: { name: string; limit: number; windowMs: number }) {
    this.limiter = new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix: options.name,
      points: options.limit,
      duration: Math.max(1, Math.round(options.windowMs / 1000)),
    });
  }

  /** Counts one attempt; answers the seconds to wait when the key is over its limit, else 0. */
  async hit(key: string): Promise<number> {
    try {
      await this.limiter.consume(key);
      return 0;
    } catch (error) {
      if (error instanceof RateLimiterRes) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw error;
    }
  }

  /** The attempts counted for the key in its current window. */
  async count(key: string): Promise<number> {
    return (await this.limiter.get(key))?.consumedPoints ?? 0;
  }
}

/** Counts one attempt on each limiter (by its key); 429 with Retry-After when any is over its limit. */
export async function throttle(limiters: readonly RateLimiter[], keys: readonly string[], what: string) {
  const waits = await Promise.all(limiters.map((limiter, i) => limiter.hit(keys[i] ?? '')));
  const wait = Math.max(...waits);
  if (wait > 0) throw new RateLimited(`Too many ${what} attempts. Please try again in ${wait} seconds.`, wait);
}
