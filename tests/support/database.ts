import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/db/index.ts';

/** Migrated PGlite data directory made once by the global setup; copies open in under a second. */
export const pgliteTemplate = path.resolve(import.meta.dirname, '..', '..', '.tmp', 'pglite-template');

export interface TestDatabase {
  /** DATA_DIR for the server (holds pglite/ when no PostgreSQL is used). */
  dataDir: string;
  /** Set when the tests run on PostgreSQL: a fresh database of its own. */
  databaseUrl: string | undefined;
  open(): Promise<Database>;
  destroy(): Promise<void>;
}

/**
 * A private, migrated database for one test file: a copy of the PGlite template, or a
 * new database on the PostgreSQL server of `serverUrl` (DATABASE_URL by default; dropped afterwards).
 */
export async function createTestDatabase(
  serverUrl: string | null = process.env.DATABASE_URL || null,
): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-test-'));
  let databaseUrl: string | undefined;
  if (serverUrl) {
    const name = `atelier_test_${randomBytes(6).toString('hex')}`;
    await withAdmin(serverUrl, (c) => c.query(`create database ${name}`));
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    const db = await openDatabase({ databaseUrl, dataDir });
    await db.migrate();
    await db.close();
  } else {
    fs.cpSync(pgliteTemplate, path.join(dataDir, 'pglite'), { recursive: true });
  }
  return {
    dataDir,
    databaseUrl,
    open: () => openDatabase({ databaseUrl, dataDir }),
    async destroy() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (serverUrl && databaseUrl) {
        const name = new URL(databaseUrl).pathname.slice(1);
        await withAdmin(serverUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
      }
    },
  };
}

async function withAdmin(serverUrl: string, run: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}
