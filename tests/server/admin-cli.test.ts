import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/cli/main.ts';
import { parseConfig } from '../../server/config.ts';
import { buildApp } from '../../server/http/app.ts';
import { findUserId } from '../../server/modules/auth/index.ts';
import { balanceMicros } from '../../server/modules/credits/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATA_DIR = database.dataDir;
  if (database.databaseUrl) process.env.DATABASE_URL = database.databaseUrl;
});
afterAll(() => database.destroy());

async function admin(...args: string[]) {
  const lines: string[] = [];
  const code = await runAdmin(args, (l) => lines.push(l));
  return { code, text: lines.join('\n') };
}

describe('npm run admin', () => {
  it('activates a user and grants credit exactly once per key', async () => {
    const db = await database.open();
    const app = await buildApp({ config: parseConfig({ LOG_LEVEL: 'silent', DATA_DIR: database.dataDir }), database: db });
    const reg = await app.http.inject({ method: 'POST', url: '/api/auth/register', payload: { name: 'Op', email: 'op@acme.example', password: 'long enough' } });
    expect(reg.statusCode).toBe(200);
    await app.http.close();
    await db.close();

    expect((await admin('list-users')).text).toMatch(/op@acme\.example\tOp\tinactive\tcompany/);
    expect(await admin('activate-user', 'OP@acme.example')).toEqual({ code: 0, text: 'OP@acme.example: active' });
    expect((await admin('list-users')).text).toMatch(/\tactive\t/);
    expect(await admin('grant-credits', 'op@acme.example', '12.50', 'welcome')).toEqual({ code: 0, text: 'Granted $12.50 to op@acme.example' });
    expect((await admin('grant-credits', 'op@acme.example', '12.50', 'welcome')).text).toBe('Already granted with key welcome; nothing added');
    expect((await admin('activate-user', 'nobody@acme.example')).code).toBe(1);
    expect((await admin('bogus')).code).toBe(2);

    const reopened = await database.open();
    const userId = await findUserId(reopened.db, 'op@acme.example');
    expect(userId).not.toBeNull();
    expect(await balanceMicros(reopened.db, userId ?? '')).toBe(12_500_000n);
    await reopened.close();
  });
});
