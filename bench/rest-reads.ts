import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { conversations } from '../server/db/schema.ts';
import { createTestDatabase } from '../tests/support/database.ts';
import { startServer } from '../tests/support/server.ts';
import { pinning, pinProcess } from './cpu-pinning.ts';
import { pacedLoadInChild, type PacedLoadResult } from './paced-load.ts';
import type { BenchResult } from './result.ts';
import { POSTGRES_URL } from './databases.ts';

const RATE = 1000;
const CONNECTIONS = 32;
const SECONDS = 10;
const READS = ['/api/auth/me/extended', '/api/conversations', '/api/user/layouts'];

const load = (url: string, headers: Record<string, string> = {}) =>
  pacedLoadInChild({ url, headers, rate: RATE, seconds: SECONDS, connections: CONNECTIONS });

function rows(name: string, result: PacedLoadResult): BenchResult[] {
  if (result.failures > 0) throw new Error(`${name}: ${result.failures} requests failed`);
  return [
    { name, metric: 'answers per second', value: result.rate, unit: 'req/s', target: `${RATE} req/s` },
    { name, metric: 'latency p50', value: result.p50, unit: 'ms', target: '≤ 2 ms' },
    { name, metric: 'latency p99', value: result.p99, unit: 'ms', target: '≤ 10 ms' },
  ];
}

/**
 * The common authenticated reads of a signed-in user (12 conversations, 3 saved layouts) on a
 * saas server in its own process, as `npm start` runs it (default log level, written to a file).
 */
async function measureServer(label: string, serverUrl: string | null): Promise<BenchResult[]> {
  const database = await createTestDatabase(serverUrl);
  const server = await startServer({
    database,
    env: { AUTH_RATE_LIMIT_PER_IP: '100000', LOG_LEVEL: 'info' },
    logFile: path.join(database.dataDir, 'server.log'),
  });
  try {
    const post = (p: string, body: unknown, method = 'POST', headers: Record<string, string> = {}) =>
      fetch(server.url + p, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const email = 'bench@acme.example';
    const registered = (await (
      await post('/api/auth/register', { name: 'Bench', email, password: 'bench password' })
    ).json()) as { id: string };
    const { access_token } = (await (await post('/api/auth/login', { email, password: 'bench password' })).json()) as {
      access_token: string;
    };
    const headers = { authorization: `Bearer ${access_token}` };
    // An account reaches its layouts and conversations once it is active.
    const activated = await server.admin('activate-user', email);
    if (activated.code !== 0) throw new Error(`activating the bench account failed: ${activated.output}`);
    for (const name of ['Review', 'Debug', 'Write']) {
      const layout = { global: {}, layout: { type: 'row', children: [] } };
      const saved = await post(`/api/user/layouts/${name}`, { layout }, 'PUT', headers);
      if (!saved.ok) throw new Error(`saving a layout answered ${saved.status}`);
    }
    // Conversations are seeded as stored rows: starting twelve runtimes would measure something else.
    await server.stop();
    const opened = await database.open();
    await opened.db.insert(conversations).values(
      Array.from({ length: 12 }, (_, i) => ({
        id: randomUUID().replaceAll('-', ''),
        userId: registered.id,
        title: `Conversation ${i + 1}`,
        selectedRepository: 'acme/web',
        trigger: 'gui',
      })),
    );
    await opened.close();
    await server.restart();
    pinProcess(server.pid(), pinning?.server);

    const results: BenchResult[] = [];
    for (const read of READS) {
      await load(server.url + read, headers); // warm-up: JIT and database caches
      results.push(...rows(`GET ${read}, ${label}`, await load(server.url + read, headers)));
    }
    return results;
  } finally {
    await server.destroy();
    await database.destroy();
  }
}

/** The floor in the same run: Fastify answering a constant, in a process of its own. */
async function measureBareFastify(): Promise<BenchResult[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'bare-fastify.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  pinProcess(child.pid, pinning?.server);
  try {
    const address = await new Promise<string>((resolve) =>
      readline.createInterface({ input: child.stdout }).once('line', resolve),
    );
    await load(`${address}/constant`);
    return rows('GET a constant from a bare Fastify (the floor)', await load(`${address}/constant`));
  } finally {
    child.kill();
  }
}

/**
 * Authenticated REST reads at a fixed 1,000 req/s over 32 connections on PGlite and
 * PostgreSQL, with a bare Fastify measured the same way in the same run.
 */
export async function benchRestReads(): Promise<BenchResult[]> {
  return [
    ...(await measureServer(`${RATE} req/s, ${CONNECTIONS} connections, PGlite`, null)),
    ...(await measureServer(`${RATE} req/s, ${CONNECTIONS} connections, PostgreSQL`, POSTGRES_URL)),
    ...(await measureBareFastify()),
  ];
}
