import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/cli/main.ts';
import { parseConfig } from '../../server/config.ts';
import { buildApp } from '../../server/http/app.ts';
import { findUserId } from '../../server/modules/auth/index.ts';
import { balanceMicros } from '../../server/modules/credits/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

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
    const app = await buildApp({
      config: parseConfig({ LOG_LEVEL: 'silent', DATA_DIR: database.dataDir }),
      database: db,
    });
    const reg = await app.http.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Op', email: 'op@acme.example', password: 'long enough' },
    });
    expect(reg.statusCode).toBe(200);
    await app.http.close();
    await db.close();

    expect((await admin('list-users')).text).toMatch(/op@acme\.example\tOp\tinactive\tcompany/);
    expect(await admin('activate-user', 'OP@acme.example')).toEqual({ code: 0, text: 'OP@acme.example: active' });
    expect((await admin('list-users')).text).toMatch(/\tactive\t/);
    expect(await admin('grant-credits', 'op@acme.example', '12.50', 'welcome')).toEqual({
      code: 0,
      text: 'Granted $12.50 to op@acme.example',
    });
    expect((await admin('grant-credits', 'op@acme.example', '12.50', 'welcome')).text).toBe(
      'Already granted with key welcome; nothing added',
    );
    expect((await admin('activate-user', 'nobody@acme.example')).code).toBe(1);
    expect((await admin('bogus')).code).toBe(2);

    const reopened = await database.open();
    const userId = await findUserId(reopened.db, 'op@acme.example');
    expect(userId).not.toBeNull();
    expect(await balanceMicros(reopened.db, userId ?? '')).toBe(12_500_000n);
    await reopened.close();
  });
});

describe('npm run admin for the affiliate programme', () => {
  it('lists the affiliates waiting for review, verifies one and rejects another', async () => {
    const db = await database.open();
    const app = await buildApp({
      config: parseConfig({ LOG_LEVEL: 'silent', DATA_DIR: database.dataDir }),
      database: db,
    });
    for (const email of ['kim@partners.example', 'lou@partners.example'])
      expect(
        (
          await app.http.inject({
            method: 'POST',
            url: '/api/affiliate/register',
            payload: { full_name: 'Partner', email, password: 'long enough', whatsapp: '+1 2025550123' },
          })
        ).statusCode,
      ).toBe(200);
    await app.http.close();
    await db.close();

    const pending = (await admin('affiliate:list', '--pending')).text;
    expect(pending).toMatch(/^kim@partners\.example\tPartner\tpending\t\+1 2025550123\t—\t/m);
    expect(pending).toMatch(/^lou@partners\.example\t/m);
    expect(await admin('affiliate:verify', 'KIM@partners.example')).toEqual({
      code: 0,
      text: 'KIM@partners.example: verified',
    });
    expect(await admin('affiliate:reject', 'lou@partners.example')).toEqual({
      code: 0,
      text: 'lou@partners.example: rejected',
    });
    expect((await admin('affiliate:list', '--pending')).text).toBe('');
    expect((await admin('affiliate:list')).text).toMatch(/kim@partners\.example\tPartner\tverified/);
    expect((await admin('affiliate:verify', 'nobody@partners.example')).code).toBe(1);
  });
});

describe('npm run admin while the server runs', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.destroy());

  const signUp = async (email: string) => {
    const post = (url: string, body: unknown) =>
      fetch(`${server.url}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('/api/auth/register', { name: 'Live', email, password: 'long enough' })).status).toBe(200);
    const login = (await (await post('/api/auth/login', { email, password: 'long enough' })).json()) as {
      access_token: string;
    };
    return (url: string) =>
      fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${login.access_token}` } }).then(
        (r) => r.json() as Promise<Record<string, unknown>>,
      );
  };

  it('changes what the running server sees, and is kept across its restart', async () => {
    process.env.DATA_DIR = server.database.dataDir;
    if (server.database.databaseUrl) process.env.DATABASE_URL = server.database.databaseUrl;
    const get = await signUp('live@acme.example');
    expect((await get('/api/auth/me/extended')).is_active).toBe(false);

    expect(await admin('activate-user', 'live@acme.example')).toEqual({ code: 0, text: 'live@acme.example: active' });
    expect((await get('/api/auth/me/extended')).is_active).toBe(true);
    expect((await admin('grant-credits', 'live@acme.example', '3.25', 'live')).code).toBe(0);
    expect((await get('/api/auth/credits')).balance).toBe(3.25);
    expect(await admin('grant-credits', 'live@acme.example', 'lots')).toEqual({
      code: 1,
      text: '"lots" is not an amount in dollars (up to 6 decimals)',
    });

    await server.restart();
    expect((await get('/api/auth/me/extended')).is_active).toBe(true);
  });

  it('refuses a second server on the same embedded database, and runs commands alone after a crash', async () => {
    // On PostgreSQL a second node may share the data directory (tests/server/cluster.postgres.test.ts).
    if (!server.database.databaseUrl) {
      const second = spawnSync(process.execPath, ['scripts/start.mjs'], {
        cwd: root,
        env: {
          ...process.env,
          DATA_DIR: server.database.dataDir,
          PORT: String(server.port + 1),
          HOST: '127.0.0.1',
          DATABASE_URL: '',
        },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(second.status).toBe(1);
      expect(second.stderr).toContain(
        `The embedded database in ${server.database.dataDir} is open in another process (pid ${server.pid()})`,
      );
    }

    process.env.DATA_DIR = server.database.dataDir;
    await server.crash();
    // The crashed server's lock is stale: the command opens the database itself.
    expect(await admin('deactivate-user', 'live@acme.example')).toEqual({
      code: 0,
      text: 'live@acme.example: inactive',
    });
    await server.restart();
    expect((await admin('list-users')).text).toMatch(/live@acme\.example\tLive\tinactive/);
  });
});
