import fs from 'node:fs';
import path from 'node:path';
import { agentFactory } from './agent/index.ts';
import { adminSocketPath, serveAdminChannel } from './cli/admin-channel.ts';
import { runCommand } from './cli/commands.ts';
import { ConfigError, parseConfig } from './config.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { openDatabase, type Database } from './db/index.ts';
import { buildApp } from './http/app.ts';
import type { Modules } from './modules/index.ts';
import { buildWebApp } from './web-build.ts';

const root = path.resolve(import.meta.dirname, '..');
const webRoot = path.join(root, 'dist');

/** Newest modification time below the web app's sources, to know whether dist/ is stale. */
function newestSource(): number {
  let newest = 0;
  const visit = (p: string) => {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const p of [
    'src',
    'locales',
    'machines',
    'public',
    'index.html',
    'vite.config.ts',
    'scripts/prerender-landing.ts',
    'openapi/schema.d.ts',
    'package-lock.json',
  ])
    visit(path.join(root, p));
  return newest;
}

function buildIfNeeded() {
  const built = fs.statSync(path.join(webRoot, 'index.html'), { throwIfNoEntry: false });
  if (built && built.mtimeMs >= newestSource()) return;
  console.log(JSON.stringify({ level: 30, msg: 'building the web app (vite build)' }));
  buildWebApp();
}

async function runAdminCommand(database: Database, modules: Modules, args: string[]) {
  const lines: string[] = [];
  const code = await runCommand(database.db, args, (line) => lines.push(line), modules.auth.userChanged);
  return { code, lines };
}

async function main() {
  let config;
  try {
    config = parseConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  if (process.argv.includes('--build-if-needed')) buildIfNeeded();
  let database: Database;
  try {
    database = await openDatabase(config);
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  await database.migrate();
  const { http: app, modules } = await buildApp({ config, database, webRoot, agentFactory });
  let adminChannel: Awaited<ReturnType<typeof serveAdminChannel>> | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    await adminChannel?.close();
    await app.close();
    await database.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  // Operator commands run here while this process holds the embedded database (on PostgreSQL, npm run admin opens it itself).
  if (database.lock) {
    const socketPath = adminSocketPath(config.dataDir);
    adminChannel = await serveAdminChannel(socketPath, (args) => runAdminCommand(database, modules, args));
    database.lock.advertise(socketPath);
  }
  app.log.info({ url: config.publicUrl, database: database.kind, mode: config.appMode }, 'Atelier is ready');
}

await main();
