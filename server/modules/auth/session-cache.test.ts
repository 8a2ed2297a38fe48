import { describe, expect, it } from 'vitest';
import { SESSION_CACHE_TTL_MS, SessionCache } from './session-cache.ts';

const ada = { id: 'ada', email: 'ada@acme.example', isActive: true };
const bob = { id: 'bob', email: 'bob@acme.example', isActive: false };
const farFuture = new Date(Date.UTC(2100, 0, 1));

function cacheAt(start = 1_000_000) {
  const clock = { now: start };
  return { clock, cache: new SessionCache(() => clock.now) };
}

describe('SessionCache', () => {
  it('answers a token it saw until the TTL has passed, then reads again', () => {
    const { clock, cache } = cacheAt();
    cache.set('t1', ada, farFuture);
    clock.now += SESSION_CACHE_TTL_MS - 1;
    expect(cache.get('t1')).toEqual(ada);
    clock.now += 1;
    expect(cache.get('t1')).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('never trusts a session past its own expiry, even within the TTL', () => {
    const { clock, cache } = cacheAt();
    cache.set('t1', ada, new Date(clock.now + 500));
    clock.now += 499;
    expect(cache.get('t1')).toEqual(ada);
    clock.now += 1;
    expect(cache.get('t1')).toBeNull();
  });

  it('forgets every token of one user and keeps the others', () => {
    const { cache } = cacheAt();
    cache.set('a1', ada, farFuture);
    cache.set('a2', ada, farFuture);
    cache.set('b1', bob, farFuture);
    cache.forgetUser('ada');
    expect(cache.get('a1')).toBeNull();
    expect(cache.get('a2')).toBeNull();
    expect(cache.get('b1')).toEqual(bob);
    cache.clear();
    expect(cache.get('b1')).toBeNull();
  });

  it('holds at most 10,000 entries, dropping the oldest', () => {
    const { cache } = cacheAt();
    for (let i = 0; i < 10_001; i++) cache.set(`t${i}`, ada, farFuture);
    expect(cache.size).toBe(10_000);
    expect(cache.get('t0')).toBeNull();
    expect(cache.get('t1')).toEqual(ada);
    expect(cache.get('t10000')).toEqual(ada);
  });
});
