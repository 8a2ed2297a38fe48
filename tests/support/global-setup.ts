import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../server/db/index.ts';
import { serverBundle } from '../../scripts/server-bundle.mjs';
import { pgliteTemplate } from './database.ts';

const migrations = path.resolve(import.meta.dirname, '..', '..', 'server', 'db', 'migrations');

/**
 * Builds the server's bundle that test servers start from, as `npm start` does (once, before test
 * files start servers side by side), and makes the migrated PGlite template once per migration
 * set (initdb takes seconds; copies don't).
 */
export default async function setup() {
  await serverBundle();
  const files = fs.readdirSync(migrations, { recursive: true }).map(String).sort();
  const digest = createHash('sha256');
  for (const f of files) {
    const p = path.join(migrations, f);
    if (fs.statSync(p).isFile()) digest.update(f).update(fs.readFileSync(p));
  }
  const stamp = path.join(pgliteTemplate, '.migrations-sha256');
  const sum = digest.digest('hex');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === sum) return;
  fs.rmSync(pgliteTemplate, { recursive: true, force: true });
  const work = `${pgliteTemplate}.work`;
  fs.rmSync(work, { recursive: true, force: true });
  const db = await openDatabase({ dataDir: work });
  await db.migrate();
  await db.close();
  fs.renameSync(path.join(work, 'pglite'), pgliteTemplate);
  fs.rmSync(work, { recursive: true, force: true });
  fs.writeFileSync(stamp, sum);
}
