import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rateLimits } from '../../server/db/schema.ts';
import { RateLimiter } from '../../server/modules/rate-limits/index.ts';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';

// Someone else's email, tried with wrong passwords from many addresses: the attacker is slowed
// and refused, the owner still signs in. The counts live in the database, shared by every node,
// not in the server's memory.

const t = withTestApp({ AUTH_RATE_LIMIT_PER_IP: '30', AUTH_RATE_LIMIT_PER_EMAIL: '10' });

const login = (email: string, password: string, ip: string) =>
  call(t.app, 'POST', '/api/auth/login', { body: { email, password }, ip });

describe('sign-in under attack', () => {
  it('refuses the guessing address, and lets the owner in from theirs', { timeout: 60_000 }, async () => {
    await signUp(t.app, t.db, 'owner@acme.example');
    // The owner's password is 'long enough' (the sign-up helper's). Eleven tries from one address:
    // the eleventh is refused there.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await login('owner@acme.example', `guess ${i}`, '203.0.113.7')).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    // Then from five more addresses: past the email's limit, each waits a second, and is told 401.
    for (let address = 1; address <= 5; address++)
      expect((await login('owner@acme.example', 'guess', `198.51.100.${address}`)).status).toBe(401);

    // The owner, from their own address: signed in, a second later at most.
    const started = performance.now();
    const owner = await login('owner@acme.example', 'long enough', '192.0.2.44');
    expect(owner.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(3000);
    // And guessing from a new address is slowed down, not sped up.
    const slowed = performance.now();
    expect((await login('owner@acme.example', 'guess', '198.51.100.99')).status).toBe(401);
    expect(performance.now() - slowed).toBeGreaterThanOrEqual(900);
  });

  it('keeps its counts in the database, the same for every node', async () => {
    const nodeA = new RateLimiter(t.db, { name: 'shared-check', limit: 3, windowMs: 60_000 });
    const nodeB = new RateLimiter(t.db, { name: 'shared-check', limit: 3, windowMs: 60_000 });
    expect(await nodeA.hit('k')).toBe(0);
    expect(await nodeB.hit('k')).toBe(0);
    expect(await nodeA.hit('k')).toBe(0);
    expect(await nodeB.hit('k')).toBeGreaterThan(0);
    // Distinct emails tried cost rows, not server memory: 200 of them, each a row.
    for (let i = 0; i < 200; i++) await login(`nobody-${i}@acme.example`, 'guess', `10.9.${i % 250}.1`);
    const [row] = await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(rateLimits)
      .where(sql`${rateLimits.key} like 'login-address-email:%nobody-%'`);
    expect(Number(row?.count)).toBe(200);
  });
});
