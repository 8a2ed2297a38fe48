import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { clientForDrizzle } from './pglite-client.ts';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { scriptModule } from '../shared/script-module.ts';
import { lockDataDir, type DataDirLock } from './data-dir-lock.ts';
import { PGLITE_OPTIONS } from './pglite-options.ts';
import * as schema from './schema.ts';

export { schema };
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs the committed SQL migrations (forward-only). */
  migrate(): Promise<void>;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The embedded database's hold on DATA_DIR (null on PostgreSQL, which many processes share). */
  lock: DataDirLock | null;
}

const migrationsFolder = path.join(import.meta.dirname, 'migrations');
const repositoryRoot = path.join(import.meta.dirname, '..', '..');

/** Runs create-pglite.ts in a child process (see there why). */
async function createInItsOwnProcess(dir: string): Promise<void> {
  const code = await scriptModule(path.join(import.meta.dirname, 'create-pglite.ts'), 'external');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '--eval', code], {
      cwd: repositoryRoot,
      env: { ...process.env, PGLITE_DIR: path.resolve(dir) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2_000)));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`creating the embedded database failed (exit ${code}): ${errors.trim()}`)),
    );
  });
}

/** PostgreSQL when a URL is given, else the embedded PGlite database in `<dataDir>/pglite`. */
export async function openDatabase(options: { databaseUrl?: string | undefined; dataDir: string }): Promise<Database> {
  if (options.databaseUrl) {
    // Loaded only for PostgreSQL: the embedded database's start does without them.
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection that PostgreSQL ends (a restart, an administrator's command) leaves the
    // pool, which opens a new one on next use; unheard, its 'error' event would end the process.
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(drizzlePg(pool), { migrationsFolder }),
      ping: async () => void (await db.execute(sql`select 1`)),
      close: () => pool.end(),
      lock: null,
    };
  }
  const dir = path.join(options.dataDir, 'pglite');
  const lock = lockDataDir(options.dataDir);
  let client: PGlite;
  try {
    fs.mkdirSync(dir, { recursive: true });
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await createInItsOwnProcess(dir);
    client = await PGlite.create(dir, PGLITE_OPTIONS);
  } catch (error) {
    lock.release();
    throw error;
  }
  const db = drizzlePglite({ client: clientForDrizzle(client) as unknown as PGlite, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    ping: async () => void (await client.query('select 1')),
    close: async () => {
      try {
        await client.close();
      } finally {
        lock.release();
      }
    },
    lock,
  };
}

/** Whether an error is PostgreSQL's unique-violation (23505), from either driver. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
