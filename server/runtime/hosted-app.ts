import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CgroupTree, ConversationCgroup } from './cgroups.ts';
import { cgroupLimits, rlimitOptions, type WorkspaceLimits } from './limits.ts';
import type { IsolatedNetwork, NetworkTools } from './network.ts';
import { killTree } from './processes.ts';
import { sandboxUser, writeAccountFiles, type Sandbox, type SandboxScope } from './sandbox.ts';

/** An app run apart from any conversation (a local deployment): its files, how it starts, its port. */
export interface HostedAppSpec {
  /** Names its directory: letters, digits, dots, dashes and underscores. */
  key: string;
  /** A gzipped tar of the app's files. */
  archive: Uint8Array;
  /** The shell command that starts it, run in its directory with PORT set. */
  start: string;
  port: number;
}

export interface HostedApp {
  readonly port: number;
  stop(): Promise<void>;
}

/** How long an app may take to answer on its port after it starts. */
const READY_TIMEOUT_MS = 60_000;

interface HostingTools {
  sandbox: Sandbox;
  /** Null: the app shares the host's network (no pasta), as unsandboxed commands do. */
  networkTools: NetworkTools | null;
  cgroups: CgroupTree | null;
  limits: WorkspaceLimits;
  startNetwork: (tools: NetworkTools, port: number, controlDir: string) => Promise<IsolatedNetwork>;
}

const KEY = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * Runs apps in `<rootDir>/<key>/app`, each sandboxed like a workspace (its own user, limits and
 * view of the system) in a network namespace of its own whose only way in is its port, forwarded
 * from the host: a deployment is published. Its archive is unpacked inside its sandbox too. The
 * spec is kept beside the files (in `<key>`, which only the server writes), so `restart` brings
 * the app back after the server restarts; its processes end with the server's.
 */
export class AppHost {
  private readonly running = new Map<string, HostedApp>();

  constructor(
    private readonly rootDir: string,
    private readonly tools: () => Promise<HostingTools>,
  ) {}

  /** Unpacks the archive into a fresh directory and starts the app; answers once it answers HTTP on its port. */
  async host(spec: HostedAppSpec): Promise<HostedApp> {
    const dir = this.dirOf(spec.key);
    await this.remove(spec.key);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(path.join(dir, 'app.json'), JSON.stringify({ start: spec.start, port: spec.port }));
    const { scope, sandbox, release } = await this.prepare(spec.key, null);
    try {
      await untar(
        spec.archive,
        sandbox.wrap(['tar', '-xzf', '-', '-C', scope.workspaceDir, '--no-same-owner'], scope, { network: false }),
      );
    } finally {
      await release();
    }
    return this.launch(spec.key, spec.start, spec.port);
  }

  /** Starts a hosted app again from its kept files and spec (after a server restart). */
  async restart(key: string): Promise<HostedApp> {
    const running = this.running.get(key);
    if (running) return running;
    const { start, port } = JSON.parse(await readFile(path.join(this.dirOf(key), 'app.json'), 'utf8')) as {
      start: string;
      port: number;
    };
    return this.launch(key, start, port);
  }

  /** Stops the app and deletes its files; an unknown key is already removed. */
  async remove(key: string): Promise<void> {
    await this.running.get(key)?.stop();
    await rm(this.dirOf(key), { recursive: true, force: true });
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.running.values()].map((app) => app.stop()));
  }

  private dirOf(key: string) {
    if (!KEY.test(key)) throw new Error(`Invalid app key: ${key}`);
    return path.join(this.rootDir, key);
  }

  /** The app's directories (its user's; `control` the server's), sandbox scope and control group. */
  private async prepare(key: string, network: IsolatedNetwork | null) {
    const dir = await realpath(this.dirOf(key));
    const { sandbox, cgroups, limits } = await this.tools();
    const user = sandbox.sandboxed ? sandboxUser(`app:${key}`) : null;
    const [workspaceDir, homeDir, tmpDir, controlDir] = ['app', 'home', 'tmp', 'control'].map((name) =>
      path.join(dir, name),
    ) as [string, string, string, string];
    for (const made of [workspaceDir, homeDir]) {
      await mkdir(made, { recursive: true, mode: 0o755 });
      if (user) await chown(made, user.uid, user.gid);
    }
    // Sticky and open to all, as a workspace's (local-runtime.ts).
    await mkdir(tmpDir, { recursive: true });
    await chmod(tmpDir, 0o1777);
    await mkdir(controlDir, { recursive: true, mode: 0o755 });
    await writeAccountFiles(controlDir, user, homeDir);
    const cgroup: ConversationCgroup | null = (await cgroups?.create(`app-${key}`, cgroupLimits(limits))) ?? null;
    const scope: SandboxScope = {
      workspaceDir,
      homeDir,
      tmpDir,
      controlDir,
      network,
      user,
      cgroup,
      rlimits: () => rlimitOptions(limits, { fileSizeBytes: limits.diskMb * 2 ** 20, ownUser: user !== null }),
    };
    return { dir, scope, sandbox, release: async () => cgroup?.remove() };
  }

  private async launch(key: string, start: string, port: number): Promise<HostedApp> {
    const { networkTools, startNetwork } = await this.tools();
    const controlDir = path.join(await realpath(this.dirOf(key)), 'control');
    await mkdir(controlDir, { recursive: true, mode: 0o755 });
    const network = networkTools ? await startNetwork(networkTools, port, controlDir) : null;
    const { dir, scope, sandbox, release } = await this.prepare(key, network);
    const argv = sandbox.wrap(['/bin/sh', '-c', `exec ${start}`], scope);
    const log = openSync(path.join(dir, 'app.log'), 'a');
    let child: ChildProcess;
    try {
      child = spawn(argv[0]!, argv.slice(1), {
        cwd: scope.workspaceDir,
        // Only what the app needs: the server's own environment holds its secrets.
        env: {
          PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
          LANG: process.env.LANG ?? 'C.UTF-8',
          HOME: scope.homeDir,
          PORT: String(port),
        },
        detached: true,
        stdio: ['ignore', log, log],
      });
    } finally {
      closeSync(log);
    }
    const stop = async () => {
      if (this.running.get(key) === app) this.running.delete(key);
      if (child.pid !== undefined) await killTree(child.pid);
      await network?.stop();
      await release();
    };
    const app: HostedApp = { port, stop };
    this.running.set(key, app);
    try {
      await answersHttp(port, child, path.join(dir, 'app.log'));
    } catch (error) {
      await stop();
      throw error;
    }
    return app;
  }
}

/** Unpacks the archive with `argv` (tar in the app's sandbox), reading it from stdin. */
function untar(archive: Uint8Array, argv: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const tar = spawn(argv[0] as string, argv.slice(1), { stdio: ['pipe', 'ignore', 'pipe'] });
    let errors = '';
    tar.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    tar.once('error', reject);
    tar.stdin.on('error', () => undefined);
    tar.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`The app's archive could not be unpacked: ${errors.trim()}`)),
    );
    tar.stdin.end(archive);
  });
}

/** Waits until something answers HTTP on the port; fails when the app exits first or takes too long. */
async function answersHttp(port: number, child: ChildProcess, logFile: string): Promise<void> {
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const tail = async () => (await readFile(logFile, 'utf8').catch(() => '')).trim().split('\n').slice(-10).join('\n');
  for (;;) {
    const answered = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    if (exited !== undefined)
      throw new Error(`The app exited (code ${exited}) before it answered on port ${port}:\n${await tail()}`);
    if (Date.now() > deadline)
      throw new Error(`The app did not answer on port ${port} within ${READY_TIMEOUT_MS / 1000} s:\n${await tail()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
