import { randomUUID } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { listAffiliates, setAffiliateStatus } from '../modules/affiliate/index.ts';
import { findUserId, listUsers, setUserActive } from '../modules/auth/index.ts';
import { dollarsText, grantCredit, parseDollars } from '../modules/credits/index.ts';
import { readOutbox } from '../modules/mail/index.ts';
import { listPurchases, recordRefund, TEST_PAYMENT_PREFIX } from '../modules/billing/index.ts';

// The operator's commands, run against a database: by `npm run admin` itself, or by the running
// server that holds the embedded database when the command line hands them over.

export const usage = `Usage: npm run admin -- <command>

  list-users                          every account, newest first
  activate-user <email>               let a user past registration onboarding
  deactivate-user <email>             hold a user on registration onboarding again
  grant-credits <email> <dollars> [idempotency-key]
                                      add credit (once per key; a new key when omitted)
  outbox [count]                      the newest mail kept while no SMTP_URL is set (10 unless given)
  purchases <email>                   a user's completed purchases, newest first, with their references
  purchase:refund <reference> [dollars]
                                      record the refund of a purchase made with the test payment provider
                                      (what is left of it unless given; several partial refunds add up to
                                      the purchase at most): its credit is taken back and its affiliate
                                      commissions reversed. Stripe refunds are made in Stripe and
                                      recorded by its webhook
  affiliate:list [--pending]          affiliates, oldest first (only those waiting for review with --pending)
  affiliate:verify <email>            let an affiliate create referral links
  affiliate:reject <email>            turn an affiliate's application down`;

const argumentCounts: Record<string, number> = {
  'list-users': 0,
  'activate-user': 1,
  'deactivate-user': 1,
  'grant-credits': 2,
  outbox: 0,
  purchases: 1,
  'purchase:refund': 1,
  'affiliate:list': 0,
  'affiliate:verify': 1,
  'affiliate:reject': 1,
};

/** Whether the arguments name a command and give it what it needs. */
export function isCommand(args: readonly string[]): boolean {
  const [command, ...rest] = args;
  return command !== undefined && command in argumentCounts && rest.length >= (argumentCounts[command] ?? 0);
}

/**
 * Runs one command; returns its exit code (2: not a command, 1: it failed). `userChanged` tells
 * the running servers that an account changed, so they stop trusting their cached sign-ins.
 */
export async function runCommand(
  db: Db,
  args: readonly string[],
  out: (line: string) => void,
  userChanged: (userId: string) => Promise<void>,
): Promise<number> {
  if (!isCommand(args)) {
    out(usage);
    return 2;
  }
  const [command, email = '', amount = '', key = `admin-${randomUUID()}`] = args;
  switch (command) {
    case 'list-users':
      for (const u of await listUsers(db))
        out(
          [
            u.email,
            u.fullname,
            u.isActive ? 'active' : 'inactive',
            u.isPersonal ? 'personal' : 'company',
            u.createdAt.toISOString(),
          ].join('\t'),
        );
      return 0;
    case 'outbox': {
      const count = Number(email || 10);
      if (!Number.isInteger(count) || count < 1) {
        out('count must be a whole number of at least 1');
        return 1;
      }
      const mails = await readOutbox(db, count);
      if (mails.length === 0) out('The outbox is empty.');
      for (const mail of mails)
        out(
          [
            `#${mail.id} ${mail.createdAt.toISOString()} to ${mail.to}`,
            `Subject: ${mail.subject}`,
            '',
            mail.text,
            '',
          ].join('\n'),
        );
      return 0;
    }
    case 'purchases': {
      const userId = await findUserId(db, email);
      if (!userId) {
        out(`No account with the email ${email}`);
        return 1;
      }
      const purchases = await listPurchases(db, userId);
      if (purchases.length === 0) out(`${email} has no completed purchase.`);
      for (const p of purchases) out([p.reference, dollarsText(p.amountMicros), p.at.toISOString()].join('\t'));
      return 0;
    }
    case 'purchase:refund': {
      // `email` is the reference here.
      const reference = email;
      if (!reference.startsWith(TEST_PAYMENT_PREFIX)) {
        out(
          `${reference} was not paid with the test payment provider: refund it in Stripe, whose webhook records the refund.`,
        );
        return 1;
      }
      let amountMicros: bigint | undefined;
      try {
        amountMicros = amount ? parseDollars(amount) : undefined;
        // Each command is a refund of its own: a second partial refund may follow, up to the purchase.
        const refunded = await recordRefund(db, { reference, refundId: `operator:${randomUUID()}`, amountMicros });
        if (!refunded) {
          out(`No completed purchase has the reference ${reference}`);
          return 1;
        }
        const left = refunded.purchaseMicros - refunded.refundedMicros;
        out(
          `Refund of purchase ${reference} recorded: ${dollarsText(refunded.refundedMicros)} of ${dollarsText(refunded.purchaseMicros)} refunded, ${dollarsText(left)} left; the customer's balance is ${dollarsText(refunded.balanceMicros)}`,
        );
        return 0;
      } catch (error) {
        out(error instanceof Error ? error.message : String(error));
        return 1;
      }
    }
    case 'affiliate:list':
      for (const a of await listAffiliates(db, { pending: email === '--pending' }))
        out([a.email, a.fullName, a.status, a.whatsapp, a.website ?? '—', a.createdAt.toISOString()].join('\t'));
      return 0;
    case 'affiliate:verify':
    case 'affiliate:reject': {
      const status = command === 'affiliate:verify' ? 'verified' : 'rejected';
      const found = await setAffiliateStatus(db, email, status);
      out(found ? `${email}: ${status}` : `No affiliate with the email ${email}`);
      return found ? 0 : 1;
    }
    case 'activate-user':
    case 'deactivate-user': {
      const id = await setUserActive(db, email, command === 'activate-user');
      if (id) await userChanged(id);
      out(
        id ? `${email}: ${command === 'activate-user' ? 'active' : 'inactive'}` : `No account with the email ${email}`,
      );
      return id ? 0 : 1;
    }
    default: {
      const userId = await findUserId(db, email);
      if (!userId) {
        out(`No account with the email ${email}`);
        return 1;
      }
      const granted = await grantCredit(db, {
        userId,
        amountMicros: parseDollars(amount),
        type: 'credit',
        // An operator's grant (a refund, a correction) is as good as paid credit: it does not expire.
        kind: 'paid',
        description: 'Granted by the operator',
        idempotencyKey: key,
        expiresAt: null,
      });
      out(granted ? `Granted $${amount} to ${email}` : `Already granted with key ${key}; nothing added`);
      return 0;
    }
  }
}
