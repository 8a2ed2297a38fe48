import { desc } from 'drizzle-orm';
import type * as Nodemailer from 'nodemailer';
import type { Db } from '../../db/index.ts';
import { outbox } from '../../db/schema.ts';
import { lazyPackage } from '../../shared/lazy-package.ts';

// Loaded only where SMTP is configured.
const nodemailer = lazyPackage<typeof Nodemailer>('nodemailer');

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Sends the mail through SMTP, or keeps it in the outbox when no SMTP_URL is set. Throws when SMTP refuses it. */
  send(mail: Mail): Promise<void>;
}

interface MailLog {
  info(details: object, message: string): void;
}

/**
 * The platform's one way out for mail. Without SMTP the mail waits in the outbox table for the
 * operator (`npm run admin -- outbox`); the log says so but never holds the mail's links, which
 * are credentials.
 */
export function createMailer(db: Db, options: { smtpUrl: string | undefined; from: string; log: MailLog }): Mailer {
  const { smtpUrl, from, log } = options;
  if (smtpUrl) {
    const transport = nodemailer().createTransport(smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      },
    };
  }
  return {
    async send(mail) {
      await db.insert(outbox).values(mail);
      log.info(
        { to: mail.to, subject: mail.subject },
        'mail kept in the outbox (no SMTP_URL): npm run admin -- outbox',
      );
    },
  };
}

/** The newest mail kept in the outbox, newest first. */
export async function readOutbox(db: Db, limit: number) {
  return db.select().from(outbox).orderBy(desc(outbox.id)).limit(limit);
}
