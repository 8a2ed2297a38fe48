import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { sandboxTestEnv } from './sandbox.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface RunningServer {
  /** http://localhost:PORT or http://127.0.0.1:PORT, as `address` asked */
  url: string;
  port: number;
  /** The server process's id while it runs. */
  pid(): number | undefined;
  database: TestDatabase;
  /** Everything the process printed (JSON log lines). */
  output(): string;
  /** SIGTERM and wait; the data is kept. */
  stop(): Promise<void>;
  /** SIGKILL (a crash: nothing is shut down) and wait; the data is kept. */
  crash(): Promise<void>;
  /** Stop, then start again on the same port and data. */
  restart(): Promise<void>;
  /** Runs `npm run admin -- ...args` against this installation, as its operator would. */
  admin(...args: string[]): Promise<{ code: number | null; output: string }>;
  /** Stop and delete the data (unless the database was borrowed from another server). */
  destroy(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The real platform in its own process (`scripts/start.mjs`, as `npm start` runs it) on a
 * private database, serving the built SPA from dist/ (built by the e2e global setup).
 * With `database` it shares another server's database and data directory instead: a second
 * node of the same installation. With `logFile` it writes its log straight to that file, as a
 * service does, instead of through a pipe this process reads (a benchmark's harness must not
 * pace the server's writes).
 */
export async function startServer(
  options: {
    mode?: 'saas' | 'oss';
    env?: Record<string, string>;
    database?: TestDatabase;
    logFile?: string;
    /** `localhost` listens as the README's default does (both loopback families) and is reached by that name. */
    address?: 'localhost' | '127.0.0.1';
  } = {},
): Promise<RunningServer> {
  const database = options.database ?? (await createTestDatabase());
  const port = await freePort();
  const address = options.address ?? '127.0.0.1';
  const url = `http://${address}:${port}`;
  let child: ChildProcess | undefined;
  let log = '';
  const output = () => (options.logFile ? fs.readFileSync(options.logFile, 'utf8') : log);

  async function launch() {
    const env = {
      ...process.env,
      PORT: String(port),
      HOST: address,
      PUBLIC_URL: url,
      DATA_DIR: database.dataDir,
      APP_MODE: options.mode ?? 'saas',
      LOG_LEVEL: 'warn',
      ...sandboxTestEnv(),
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      ...options.env,
    };
    if (!database.databaseUrl) delete env.DATABASE_URL;
    const logFd = options.logFile ? fs.openSync(options.logFile, 'a') : null;
    child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
      cwd: root,
      env,
      stdio: ['ignore', logFd ?? 'pipe', logFd ?? 'pipe'],
    });
    if (logFd !== null) fs.closeSync(logFd);
    child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
      try {
        if ((await fetch(`${url}/ready`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`server did not become ready within 60 s:\n${output()}`);
  }

  async function stop(signal: NodeJS.Signals = 'SIGTERM') {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  }

  await launch();
  return {
    url,
    port,
    pid: () => child?.pid,
    database,
    output,
    stop: () => stop(),
    admin: (...args) =>
      new Promise((resolve) => {
        const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: database.dataDir };
        if (database.databaseUrl) env.DATABASE_URL = database.databaseUrl;
        else delete env.DATABASE_URL;
        const cli = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'cli', 'main.ts'), ...args], {
          cwd: root,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        cli.stdout?.on('data', (d: Buffer) => (output += d.toString()));
        cli.stderr?.on('data', (d: Buffer) => (output += d.toString()));
        cli.once('exit', (code) => resolve({ code, output }));
      }),
    crash: () => stop('SIGKILL'),
    async restart() {
      await stop();
      await launch();
    },
    async destroy() {
      await stop();
      if (!options.database) await database.destroy();
    },
  };
}

/**
 * Saves contact information and the test card through a server process's onboarding API, as the
 * application does for the signed-in `token`; throws when the server refuses either.
 */
export async function saveTestCard(server: Pick<RunningServer, 'url'>, token: string, holder = 'Ada Lovelace') {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}/api/atelier/onboarding/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { contact_information?: { id: string } };
  };
  const contact = await post('save-contact-information', {
    organization_name: 'Acme',
    legal_name: holder,
    street_address: 'Main street 1',
    city: 'Berlin',
    province: 'Berlin',
    postal_code: '10115',
  });
  await post('save-payment-information', {
    contact_information_id: contact.contact_information?.id,
    card_number: '4242 4242 4242 4242',
    expiry_date: '12/35',
    security_code: '123',
    cardholder_name: holder,
    same_billing_address: true,
  });
}
