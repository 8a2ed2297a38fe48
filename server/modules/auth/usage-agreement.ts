import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { usageAgreementLinks, users } from '../../db/schema.ts';
import { Conflict, InvalidInput, NotAuthenticated } from '../../shared/domain-errors.ts';
import { grantFreeCredit } from '../credits/index.ts';
import type { Mailer } from '../mail/index.ts';
import { findUser } from './lookup.ts';
import { createMailedLinks, refuseEarlyResend } from './mailed-links.ts';

/** How long an agreement link works. */
export const AGREEMENT_LINK_LIFETIME_MS = 7 * 24 * 3600_000;

export const INVALID_AGREEMENT_LINK =
  'This usage agreement link is invalid or has expired. Ask for a new one from the banner in the app.';

export interface UsageAgreementDeps {
  mailer: Mailer;
  publicUrl: string;
  /** Tells every node the account changed (its cached sign-ins carry signed_agreement). */
  userChanged: (userId: string) => Promise<void>;
  now?: () => number;
}

/** The usage agreement of company accounts: a link mailed to the company email, signed on its page. */
export function createUsageAgreement(db: Db, deps: UsageAgreementDeps) {
  const now = deps.now ?? Date.now;
  const links = createMailedLinks(db, usageAgreementLinks, AGREEMENT_LINK_LIFETIME_MS, now);

  return {
    async send(userId: string) {
      const account = await findUser(db, userId);
      if (!account) throw new NotAuthenticated();
      if (account.isPersonal)
        throw new Conflict('The usage agreement is for company accounts: register with your company email.');
      if (account.signedAgreement) throw new Conflict('You have already signed the usage agreement.');
      refuseEarlyResend(await links.lastSentAt(userId), now(), 'The usage agreement');
      await links.send(
        userId,
        account.email,
        (token) =>
          deps.mailer.send({
            to: account.email,
            subject: 'Your Atelier usage agreement',
            text: [
              `Hello ${account.fullname},`,
              '',
              'Open this link to read and sign the Atelier usage agreement for your company account.',
              'Signing it adds $100 of free credit, valid for 90 days:',
              `${deps.publicUrl}/usage-agreement?token=${token}`,
              '',
              'The link works for 7 days. If you did not ask for it, ignore this mail.',
            ].join('\n'),
          }),
        'The usage agreement could not be mailed',
      );
      return { email: account.email };
    },

    /** Signs for the link's account and grants its $100 once; the same link again answers the same. */
    async sign(token: string) {
      const row = await links.holder(token);
      if (!row) throw new InvalidInput(INVALID_AGREEMENT_LINK);
      const changed = await db
        .update(users)
        .set({ signedAgreement: true })
        .where(and(eq(users.id, row.userId), eq(users.signedAgreement, false)))
        .returning({ id: users.id });
      if (changed.length > 0) await deps.userChanged(row.userId);
      // Spec §1: $100 for signing the usage agreement sent to the company email.
      const granted = await grantFreeCredit(db, {
        userId: row.userId,
        credit: 'agreementOrTrial',
        description: 'Free credit for signing the usage agreement',
        at: new Date(now()),
      });
      return { email: row.email, signed_agreement: true as const, credit_granted: granted ? 100 : 0 };
    },
  };
}
