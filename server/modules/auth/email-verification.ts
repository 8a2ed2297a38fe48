import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { emailVerifications, users } from '../../db/schema.ts';
import { Conflict, InvalidInput, NotAuthenticated } from '../../shared/domain-errors.ts';
import type { Mailer } from '../mail/index.ts';
import { findUser } from './lookup.ts';
import { createMailedLinks, refuseEarlyResend } from './mailed-links.ts';

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
  const links = createMailedLinks(db, emailVerifications, VERIFICATION_LIFETIME_MS, now);

  /** Mails `email` a new link; links sent before stop working. */
  const send = (userId: string, email: string) =>
    links.send(
      userId,
      email,
      (token) =>
        deps.mailer.send({
          to: email,
          subject: 'Verify your email address for Atelier',
          text: [
            'Welcome to Atelier.',
            '',
            'Open this link to verify your email address and start your first conversation:',
            `${deps.publicUrl}/verify-email?token=${token}`,
            '',
            'The link works for 24 hours. If you did not create an account, ignore this mail.',
          ].join('\n'),
        }),
      'The verification email could not be sent',
    );

  return {
    send,

    async resend(userId: string) {
      const account = await findUser(db, userId);
      if (!account) throw new NotAuthenticated();
      if (account.emailVerified) throw new Conflict(ALREADY_VERIFIED);
      refuseEarlyResend(await links.lastSentAt(userId), now(), 'A verification email');
      await send(userId, account.email);
      return { email: account.email, email_verified: false };
    },

    /** Verifies the link's address; using a link again while it works answers the same. */
    async verify(token: string) {
      const holder = await links.holder(token);
      if (!holder) throw new InvalidInput(INVALID_LINK);
      const changed = await db
        .update(users)
        .set({ emailVerified: true })
        .where(and(eq(users.id, holder.userId), eq(users.emailVerified, false)))
        .returning({ id: users.id });
      if (changed.length > 0) await deps.userChanged(holder.userId);
      return { email: holder.email, email_verified: true };
    },
  };
}

export type EmailVerification = ReturnType<typeof createEmailVerification>;
