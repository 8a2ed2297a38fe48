import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../tests/support/server.ts';
import type { BenchResult } from './result.ts';
import { quantile, round } from './stats.ts';

const root = path.resolve(import.meta.dirname, '..');
const RESTARTS = 5;
/** How long the started server idles before its resident memory is read. */
const IDLE_MS = 5_000;

const residentMegabytes = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/**
 * `npm start` (the web app already built) on `dataDir`: milliseconds from the process's start
 * to its first healthy /ready, and its resident memory after idling; then SIGTERM.
 */
async function startOnce(dataDir: string): Promise<{ readyMs: number; idleRssMb: number }> {
  const port = await freePort();
  const started = performance.now();
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs'), '--build-if-needed'], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, APP_MODE: 'oss', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const ready = await fetch(`http://127.0.0.1:${port}/ready`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (performance.now() - started > 120_000) throw new Error('the server did not become ready in 2 minutes');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const readyMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    return { readyMs, idleRssMb: residentMegabytes(child.pid ?? 0) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

/**
 * The server's start as `npm start` does it, on the embedded database: on a fresh clone (an
 * empty data directory, no cached contract: the database is created and migrated) and again on
 * the same data (the restart, median of 5); each with its resident memory after 5 s idle.
 */
export async function benchServerStart(): Promise<BenchResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-bench-start-'));
  try {
    for (const cache of ['atelier-contract', 'atelier-server'])
      fs.rmSync(path.join(root, 'node_modules', '.cache', cache), { recursive: true, force: true });
    const fresh = await startOnce(dataDir);
    const restarts = [];
    for (let i = 0; i < RESTARTS; i++) restarts.push(await startOnce(dataDir));
    const name = '`npm start`, embedded database (oss)';
    return [
      { name, metric: 'fresh clone to healthy', value: round(fresh.readyMs / 1000), unit: 's', target: '≤ 8 s' },
      { name, metric: 'fresh clone, idle RSS', value: Math.round(fresh.idleRssMb), unit: 'MB', target: '≤ 400 MB' },
      {
        name,
        metric: `restart to healthy, median of ${RESTARTS}`,
        value: round(
          quantile(
            restarts.map((r) => r.readyMs),
            0.5,
          ) / 1000,
        ),
        unit: 's',
        target: '≤ 2 s',
      },
      {
        name,
        metric: `idle RSS after a restart, median of ${RESTARTS}`,
        value: Math.round(
          quantile(
            restarts.map((r) => r.idleRssMb),
            0.5,
          ),
        ),
        unit: 'MB',
        target: '≤ 400 MB',
      },
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
