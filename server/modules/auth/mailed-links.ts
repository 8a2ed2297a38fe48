import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { users, type emailVerifications, type usageAgreementLinks } from '../../db/schema.ts';
import { RateLimited, UpstreamFailed } from '../../shared/domain-errors.ts';
import { hashToken, newToken } from './tokens.ts';

/** A new mailed link at most once a minute per user, counted in the database so every node agrees. */
export const RESEND_INTERVAL_MS = 60_000;

/** 429 with the seconds left when the last link (`lastSentAt`) went out less than a minute ago. */
export function refuseEarlyResend(lastSentAt: Date | undefined, now: number, what: string) {
  const wait = lastSentAt ? lastSentAt.getTime() + RESEND_INTERVAL_MS - now : 0;
  if (wait <= 0) return;
  const seconds = Math.ceil(wait / 1000);
  throw new RateLimited(`${what} was sent a moment ago. Please try again in ${seconds} seconds.`, seconds);
}

/** The tables of mailed single-use links: a token's hash, its account, the address it went to, and when. */
type LinkTable = typeof emailVerifications | typeof usageAgreementLinks;

/**
 * Links mailed to an account's address (email verification, the usage agreement): one working
 * link per account, stored by its token's hash only, working for `lifetimeMs`.
 */
export function createMailedLinks(db: Db, table: LinkTable, lifetimeMs: number, now: () => number) {
  return {
    /** When the account's last link was made, for refuseEarlyResend. */
    async lastSentAt(userId: string): Promise<Date | undefined> {
      const [last] = await db
        .select({ createdAt: table.createdAt })
        .from(table)
        .where(eq(table.userId, userId))
        .orderBy(desc(table.createdAt))
        .limit(1);
      return last?.createdAt;
    },

    /**
     * A new link's token for `email`, which `mail` is given to send (links made before stop
     * working); when the mail fails, the link goes too (it must not hold back the next request
     * for one) and the answer is a 502 saying `failure` and why.
     */
    async send(userId: string, email: string, mail: (token: string) => Promise<unknown>, failure: string) {
      const token = newToken();
      await db.transaction(async (tx) => {
        await tx.delete(table).where(eq(table.userId, userId));
        await tx.insert(table).values({
          tokenHash: hashToken(token),
          userId,
          email,
          createdAt: new Date(now()),
          expiresAt: new Date(now() + lifetimeMs),
        });
      });
      await mail(token).catch(async (error: unknown) => {
        await db.delete(table).where(eq(table.tokenHash, hashToken(token)));
        throw new UpstreamFailed(`${failure}: ${(error as Error).message}`);
      });
    },

    /** The account of a working link, with its address; null also when the link went to an address the account no longer has. */
    async holder(token: string): Promise<{ userId: string; email: string } | null> {
      const [row] = await db
        .select({ userId: table.userId, sentTo: table.email, email: users.email })
        .from(table)
        .innerJoin(users, eq(users.id, table.userId))
        .where(and(eq(table.tokenHash, hashToken(token)), gt(table.expiresAt, new Date(now()))));
      if (!row || row.sentTo.toLowerCase() !== row.email.toLowerCase()) return null;
      return { userId: row.userId, email: row.email };
    },
  };
}
