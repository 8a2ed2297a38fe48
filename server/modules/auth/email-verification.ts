import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { emailVerifications, users } from '../../db/schema.ts';
import { HttpError } from '../../shared/http-error.ts';
import type { Mailer } from '../mail/index.ts';
import { findUser } from './lookup.ts';
import { refuseEarlyResend } from './mailed-links.ts';
import { hashToken, newToken } from './tokens.ts';

/** How long a verification link works. */
export const VERIFICATION_LIFETIME_MS = 24 * 3600_000;

export const INVALID_LINK = 'This verification link is invalid or has expired. Ask for a new one in Settings → User.';
export const ALREADY_VERIFIED = 'Your email address is already verified.';

export interface EmailVerificationDeps {
  mailer: Mailer;
  publicUrl: string;
  /** Tells every node the account changed (its cached sign-ins carry email_verified). */
  userChanged: (userId: string) => Promise<void>;
  now?: () => number;
}

/** Email verification: links mailed on registration and on request, and their use. */
export function createEmailVerification(db: Db, deps: EmailVerificationDeps) {
  const now = deps.now ?? Date.now;

  /** Mails `email` a new link; links sent before stop working. */
  async function send(userId: string, email: string) {
    const token = newToken();
    await db.transaction(async (tx) => {
      await tx.delete(emailVerifications).where(eq(emailVerifications.userId, userId));
      await tx.insert(emailVerifications).values({
        tokenHash: hashToken(token),
        userId,
        email,
        createdAt: new Date(now()),
        expiresAt: new Date(now() + VERIFICATION_LIFETIME_MS),
      });
    });
    const link = `${deps.publicUrl}/verify-email?token=${token}`;
    const sent = deps.mailer.send({
      to: email,
      subject: 'Verify your email address for Atelier',
      text: [
        'Welcome to Atelier.',
        '',
        'Open this link to verify your email address and start your first conversation:',
        link,
        '',
        'The link works for 24 hours. If you did not create an account, ignore this mail.',
      ].join('\n'),
    });
    await sent.catch(async (error: unknown) => {
      // Unsent, the link must not hold back the next request for one.
      await db.delete(emailVerifications).where(eq(emailVerifications.tokenHash, hashToken(token)));
      throw new HttpError(502, `The verification email could not be sent: ${(error as Error).message}`);
    });
  }

  return {
    send,

    async resend(userId: string) {
      const account = await findUser(db, userId);
      if (!account) throw new HttpError(401, 'Not authenticated');
      if (account.emailVerified) throw new HttpError(409, ALREADY_VERIFIED);
      const [last] = await db
        .select({ createdAt: emailVerifications.createdAt })
        .from(emailVerifications)
        .where(eq(emailVerifications.userId, userId))
        .orderBy(desc(emailVerifications.createdAt))
        .limit(1);
      refuseEarlyResend(last?.createdAt, now(), 'A verification email');
      await send(userId, account.email);
      return { email: account.email, email_verified: false };
    },

    /** Verifies the link's address; using a link again while it works answers the same. */
    async verify(token: string) {
      const [row] = await db
        .select({ userId: emailVerifications.userId, sentTo: emailVerifications.email, email: users.email })
        .from(emailVerifications)
        .innerJoin(users, eq(users.id, emailVerifications.userId))
        .where(
          and(eq(emailVerifications.tokenHash, hashToken(token)), gt(emailVerifications.expiresAt, new Date(now()))),
        );
      // A link sent to an address the account no longer has verifies nothing.
      if (!row || row.sentTo.toLowerCase() !== row.email.toLowerCase()) throw new HttpError(400, INVALID_LINK);
      const changed = await db
        .update(users)
        .set({ emailVerified: true })
        .where(and(eq(users.id, row.userId), eq(users.emailVerified, false)))
        .returning({ id: users.id });
      if (changed.length > 0) await deps.userChanged(row.userId);
      return { email: row.email, email_verified: true };
    },
  };
}

export type EmailVerification = ReturnType<typeof createEmailVerification>;
