import type { Db } from '../../server/db/index.ts';
import type { App } from '../../server/http/app.ts';
import { readOutbox } from '../../server/modules/mail/index.ts';
import { call } from './app.ts';
import type { RunningServer } from './server.ts';

/** The token of the verification link in a mail's text (or the admin command's outbox listing). */
export function verificationToken(text: string): string {
  const token = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error(`no verification link in: ${text.slice(0, 500)}`);
  return token;
}

/** The newest mail kept in the outbox for `to`. */
export async function newestMailTo(db: Db, to: string) {
  const mail = (await readOutbox(db, 1000)).find((row) => row.to.toLowerCase() === to.toLowerCase());
  if (!mail) throw new Error(`no mail to ${to} in the outbox`);
  return mail;
}

/** Opens the verification link mailed to `email` (the newest one in the outbox), as its reader would. */
export async function verifyByMail(app: App, db: Db, email: string) {
  const { text } = await newestMailTo(db, email);
  const verified = await call(app, 'POST', '/api/auth/verify-email', { body: { token: verificationToken(text) } });
  if (verified.status !== 200)
    throw new Error(`verification failed: ${verified.status} ${JSON.stringify(verified.body)}`);
}

/**
 * The newest link to `page` (such as /verify-email) mailed to `email` by a server process, read
 * from its outbox with the operator's command.
 */
export async function mailedLink(server: RunningServer, email: string, page = '/verify-email') {
  const { output } = await server.admin('outbox', '50');
  const mails = output.split(/^(?=#\d+ )/m).filter((entry) => entry.includes(` to ${email}\n`));
  const escaped = page.replace(/[/-]/g, '\\$&');
  for (const mail of mails) {
    const token = new RegExp(`${escaped}\\?token=([A-Za-z0-9_-]+)`).exec(mail)?.[1];
    if (token) return `${page}?token=${token}`;
  }
  throw new Error(`no ${page} link mailed to ${email}`);
}
