import { randomUUID } from 'node:crypto';
import { parseConfig } from '../config.ts';
import { openDatabase } from '../db/index.ts';
import { findUserId, listUsers, setUserActive } from '../modules/auth/index.ts';
import { grantCredit, parseDollars } from '../modules/credits/index.ts';

const usage = `Usage: npm run admin -- <command>

  list-users                          every account, newest first
  activate-user <email>               let a user past registration onboarding
  deactivate-user <email>             hold a user on registration onboarding again
  grant-credits <email> <dollars> [idempotency-key]
                                      add credit (once per key; a new key when omitted)`;

/** The operator's command line; same configuration (DATA_DIR, DATABASE_URL) as the server. */
export async function runAdmin(args: string[], out: (line: string) => void = console.log): Promise<number> {
  const [command, ...rest] = args;
  const commands: Record<string, number> = { 'list-users': 0, 'activate-user': 1, 'deactivate-user': 1, 'grant-credits': 2 };
  if (!command || !(command in commands) || rest.length < (commands[command] ?? 0)) {
    out(usage);
    return 2;
  }
  const config = parseConfig();
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const db = database.db;
    const [email = '', amount = ''] = rest;
    switch (command) {
      case 'list-users':
        for (const u of await listUsers(db))
          out([u.email, u.fullname, u.isActive ? 'active' : 'inactive', u.isPersonal ? 'personal' : 'company', u.createdAt.toISOString()].join('\t'));
        return 0;
      case 'activate-user':
      case 'deactivate-user': {
        const id = await setUserActive(db, email, command === 'activate-user');
        out(id ? `${email}: ${command === 'activate-user' ? 'active' : 'inactive'}` : `No account with the email ${email}`);
        return id ? 0 : 1;
      }
      default: {
        const userId = await findUserId(db, email);
        if (!userId) {
          out(`No account with the email ${email}`);
          return 1;
        }
        const key = rest[2] ?? `admin-${randomUUID()}`;
        const granted = await grantCredit(db, { userId, amountMicros: parseDollars(amount), type: 'credit', description: 'Granted by the operator', idempotencyKey: key });
        out(granted ? `Granted $${amount} to ${email}` : `Already granted with key ${key}; nothing added`);
        return 0;
      }
    }
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await runAdmin(process.argv.slice(2));
