import { execFile } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import { chmod, lstat, mkdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Owner } from './beneath.ts';
import { BrowserTab, SharedBrowser } from './browser.ts';
import { conversationRoute } from './browser-proxy.ts';
import { CgroupTree } from './cgroups.ts';
import { AppHost } from './hosted-app.ts';
import { setFileSizeLimit, stopWriters } from './disk-limit.ts';
import { Git } from './git.ts';
import { LimitWatch } from './limit-watch.ts';
import { cgroupLimits, DEFAULT_LIMITS, type WorkspaceLimits } from './limits.ts';
import { assertConversationId } from './paths.ts';
import { freePort, PortPool } from './ports.ts';
import { copyRepository } from './repository-copy.ts';
import { detectNetworkIsolation, IsolatedNetwork, type AppForward, type NetworkTools } from './network.ts';
import { connectedKernelPorts, freeKernelPorts, PythonKernel } from './python-kernel.ts';
import {
  findSandboxTools,
  installationOf,
  probe,
  Sandbox,
  sandboxUser,
  writeAccountFiles,
  type SandboxScope,
} from './sandbox.ts';
import { LocalSession } from './session.ts';
import { Shell } from './shell.ts';
import { UserTerminals } from './user-terminals.ts';
import {
  IsolationUnavailableError,
  MissingWorkspaceError,
  type Runtime,
  type RuntimeSession,
  type WorkspaceSnapshot,
} from './types.ts';
import type { Logger } from '../shared/logger.ts';
import type { AllowedRanges } from '../shared/outbound.ts';

export interface LocalRuntimeOptions {
  /**
   * Holds one workspace per conversation (`<rootDir>/<conversationId>`), and beside them the
   * conversations' homes, temporary and control directories (`.homes/`, `.tmp/`, `.control/`).
   */
  rootDir: string;
  /**
   * Ports handed to the apps conversations serve, two each (default 20000–26999: below Linux's
   * ephemeral range, 32768–60999, where an outgoing connection could take a port between its
   * check and the app's bind).
   */
  portRange?: [number, number];
  /**
   * 'auto' runs commands, git and the Python kernel in bubblewrap when the host has it, each
   * conversation in a network namespace of its own when pasta can make one; 'off' never does.
   */
  sandbox?: 'auto' | 'off';
  /**
   * Refuse to start a conversation without the sandbox and a network namespace of its own (the
   * hosted service: every conversation is someone else's); otherwise it runs with what there is, warned.
   */
  requireIsolation?: boolean;
  /** What each conversation's processes may use together. */
  limits?: WorkspaceLimits;
  /**
   * Directories the sandbox never shows: the server's data directory and anything else holding
   * secrets. The sandbox shows only system directories anyway; these are hidden even inside them.
   */
  hiddenDirs?: string[];
  /** Ports on the host's loopback that sandboxed commands may still reach (a Git server or package mirror on this machine). */
  hostPorts?: readonly number[];
  /**
   * Where the agent's browser may connect besides the conversation's own apps: anywhere, or
   * (guarded, a hosted installation) only the public addresses and the ranges allowed.
   */
  browserPolicy?: { guarded: boolean; allowed: AllowedRanges };
  /** The interpreter with ipykernel (default /usr/bin/python3: the `python3` on PATH may be another one). */
  python?: string;
  logger?: Pick<Logger, 'warn' | 'info'>;
}

const GIT_IDENTITY = { name: 'Atelier', email: 'agent@atelier.local' };
const consoleLogger: Pick<Logger, 'warn' | 'info'> = {
  warn: (details, message) => console.warn(message, details),
  info: () => undefined,
};
let runtimes = 0;

/** What confines this runtime's conversations, found once at its creation. */
interface Protections {
  sandbox: Sandbox;
  /** Why commands are not sandboxed, when they are not. */
  sandboxProblem: string | null;
  network: NetworkTools | null;
  networkProblem: string | null;
  cgroups: CgroupTree | null;
  /** To run a helper as a conversation's user (root only). */
  setpriv: string | null;
}

/**
 * Runs each conversation's workspace on this machine: a directory that is a git
 * repository, a bash in a pseudo-terminal, a Jupyter kernel, a page in a shared headless
 * Chromium and two reserved ports, with commands, git and Python confined by bubblewrap
 * where available. The browser runs outside bwrap, shared by all conversations (one
 * context each), and may only be sent to http(s) addresses so it cannot read local files.
 */
export class LocalRuntime implements Runtime {
  private readonly rootDir: string;
  /** Settles once the host's protections were found, in the background from the runtime's creation on. */
  private readonly protections: Promise<Protections>;
  private readonly ports: PortPool;
  private readonly browser = new SharedBrowser();
  private readonly browserPolicy: { guarded: boolean; allowed: AllowedRanges };
  private readonly python: string;
  private readonly hostPorts: readonly number[];
  private readonly limits: WorkspaceLimits;
  private readonly requireIsolation: boolean;
  private readonly sessions = new Map<string, LocalSession>();
  private readonly starting = new Map<string, Promise<LocalSession>>();
  private pythonCheck: Promise<string | null> | null = null;
  /** Local deployments: each app in `<rootDir>/.apps/<key>`, hidden from conversations like the workspaces. */
  readonly apps: AppHost;

  constructor(options: LocalRuntimeOptions) {
    mkdirSync(options.rootDir, { recursive: true });
    // Real paths throughout: bwrap binds and the workspace confinement compare them.
    this.rootDir = realpathSync(options.rootDir);
    for (const dir of ['.homes', '.tmp', '.control'])
      mkdirSync(path.join(this.rootDir, dir), { recursive: true, mode: 0o700 });
    const parent = path.dirname(this.rootDir);
    const hiddenDirs = options.hiddenDirs ?? (parent === path.parse(parent).root ? [] : [parent]);
    const logger = options.logger ?? consoleLogger;
    this.python = options.python ?? '/usr/bin/python3';
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.requireIsolation = options.requireIsolation ?? false;
    this.protections = this.findProtections(options.sandbox ?? 'auto', [this.rootDir, ...hiddenDirs], logger);
    this.ports = new PortPool(options.portRange ?? [20000, 26999]);
    this.hostPorts = options.hostPorts ?? [];
    this.browserPolicy = options.browserPolicy ?? { guarded: false, allowed: [] };
    this.apps = new AppHost(path.join(this.rootDir, '.apps'), async () => {
      const found = await this.protections;
      return {
        sandbox: found.sandbox,
        networkTools: found.network,
        cgroups: found.cgroups,
        limits: this.limits,
        startNetwork: (tools, port, controlDir) =>
          IsolatedNetwork.start(tools, { public: [port], loopback: [], toHost: [] }, controlDir),
      };
    });
  }

  /**
   * bubblewrap and the programs around it, pasta, control groups: each found and tried once;
   * what is in force is logged, and what is missing warned with how to install it.
   */
  private async findProtections(
    mode: 'auto' | 'off',
    hiddenDirs: string[],
    logger: Pick<Logger, 'warn' | 'info'>,
  ): Promise<Protections> {
    const controlRoot = path.join(this.rootDir, '.control');
    const extraDirs = [installationOf(process.execPath), installationOf(this.python)].filter(
      (dir): dir is string => dir !== null,
    );
    const tools = mode === 'off' ? { problem: 'the sandbox is turned off' } : await findSandboxTools(controlRoot);
    let sandbox = new Sandbox(null, hiddenDirs);
    let sandboxProblem: string | null = 'problem' in tools ? tools.problem : null;
    if (!('problem' in tools)) {
      const candidate = new Sandbox(tools, hiddenDirs, [...new Set(extraDirs)]);
      const failure = await this.tryScope(candidate);
      if (failure) sandboxProblem = `bwrap cannot make a sandbox here: ${failure}`;
      else sandbox = candidate;
    }
    let network: NetworkTools | null = null;
    let networkProblem: string | null = sandboxProblem ? 'no sandbox' : null;
    if (!sandboxProblem) {
      const found = await detectNetworkIsolation(controlRoot);
      if ('tools' in found) {
        network = found.tools;
        if (found.dnsProblem)
          logger.warn({ networkIsolated: true, reason: found.dnsProblem }, 'Sandboxed commands cannot resolve names');
      } else networkProblem = found.problem;
    }
    runtimes += 1;
    const cgroupsFound = sandboxProblem ? null : await CgroupTree.detect(`atelier-${process.pid}-${runtimes}`);
    const cgroups = cgroupsFound && !('problem' in cgroupsFound) ? cgroupsFound : null;
    if (sandboxProblem)
      logger.warn(
        { sandboxed: false, reason: sandboxProblem },
        this.requireIsolation
          ? 'Conversations cannot start: their commands would run without a sandbox (install bubblewrap and passt)'
          : 'Runtime commands run without a sandbox: they can read and write anything the server can',
      );
    else if (networkProblem)
      logger.warn(
        { networkIsolated: false, reason: networkProblem },
        this.requireIsolation
          ? "Conversations cannot start: sandboxed commands would share the host's network (install passt)"
          : "Sandboxed commands share the host's network: they can reach services on its loopback",
      );
    if (!sandboxProblem)
      logger.info(
        {
          sandboxed: true,
          user: process.getuid?.() === 0 ? 'one unprivileged user per conversation' : "the server's user",
          seccomp: (tools as { seccomp: string | null }).seccomp !== null,
          networkIsolated: network !== null,
          cgroups: cgroups ? `${cgroups.version}: ${cgroups.controllers.join(', ')}` : null,
          ...(cgroupsFound && 'problem' in cgroupsFound ? { cgroupProblem: cgroupsFound.problem } : {}),
          limits: this.limits,
        },
        cgroups
          ? 'Conversations run sandboxed, with their limits in control groups'
          : 'Conversations run sandboxed, with rlimits only: memory and processes are limited per process',
      );
    const setpriv = 'problem' in tools ? null : tools.setpriv;
    return { sandbox, sandboxProblem, network, networkProblem, cgroups, setpriv };
  }

  /** Runs `true` in a scratch sandbox as a conversation's processes will run: null when it worked. */
  private async tryScope(sandbox: Sandbox): Promise<string | null> {
    const user = sandboxUser('.probe');
    const dirs = await this.directories('.probe', user);
    const scope = this.scope(dirs, null, null, () => [], user);
    try {
      return await probe(sandbox.wrap(['true'], scope, { network: false }));
    } finally {
      await this.removeDirectories('.probe');
    }
  }

  /** Whether commands run in bubblewrap (known once it was probed). */
  async isSandboxed(): Promise<boolean> {
    return (await this.protections).sandbox.sandboxed;
  }

  get(conversationId: string): RuntimeSession | undefined {
    return this.sessions.get(conversationId);
  }

  async start(conversationId: string, options: { env?: Record<string, string> } = {}): Promise<RuntimeSession> {
    assertConversationId(conversationId);
    const running = this.sessions.get(conversationId);
    if (running) return running;
    let pending = this.starting.get(conversationId);
    if (!pending) {
      pending = this.create(conversationId, options.env ?? {}).finally(() => this.starting.delete(conversationId));
      this.starting.set(conversationId, pending);
    }
    return pending;
  }

  async remove(conversationId: string): Promise<void> {
    assertConversationId(conversationId);
    await this.starting.get(conversationId)?.catch(() => undefined);
    await this.sessions.get(conversationId)?.stop();
    this.ports.forget(conversationId);
    await this.removeDirectories(conversationId);
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.starting.values()]);
    await Promise.allSettled([...this.sessions.values()].map((session) => session.stop()));
    await this.apps.stopAll();
    await this.browser.close();
    await (await this.protections).cgroups?.remove();
  }

  /** The directories of a conversation (see LocalRuntimeOptions.rootDir), each a direct child of a directory only the server writes. */
  private paths(id: string) {
    return {
      workspaceDir: path.join(this.rootDir, id),
      // Outside the workspace so caches (npm, pip) and dotfiles stay out of git and the zip.
      homeDir: path.join(this.rootDir, '.homes', id),
      tmpDir: path.join(this.rootDir, '.tmp', id),
      controlDir: path.join(this.rootDir, '.control', id),
    };
  }

  private async removeDirectories(id: string): Promise<void> {
    await Promise.all(Object.values(this.paths(id)).map((dir) => rm(dir, { recursive: true, force: true })));
  }

  /** Null when the kernel can run, else the reason; asked once per runtime. */
  private pythonUnavailable(): Promise<string | null> {
    this.pythonCheck ??= new Promise((resolve) => {
      execFile(this.python, ['-c', 'import ipykernel'], { timeout: 30_000 }, (error, _stdout, stderr) => {
        resolve(
          error
            ? `Python is unavailable: ${this.python} cannot import ipykernel (install python3-ipykernel): ${(stderr || error.message).trim()}`
            : null,
        );
      });
    });
    return this.pythonCheck;
  }

  /**
   * The conversation's directories, created when missing (real paths): the workspace and home
   * its user's (a workspace made before it had a user of its own is given to it), the control
   * directory the server's, with the sandbox's passwd and group.
   */
  private async directories(id: string, user: Owner | null) {
    const { workspaceDir, homeDir, tmpDir, controlDir } = this.paths(id);
    for (const dir of [workspaceDir, homeDir]) {
      await mkdir(dir, { recursive: true, mode: dir === workspaceDir ? 0o755 : 0o700 });
      if (user) await giveTo(dir, user);
    }
    // The server's, sticky and open to all as /tmp is: where the data directory lies under /tmp
    // (a developer's), the sandbox's other mount points are made inside it, which the sandbox's
    // user may then neither move nor remove.
    await mkdir(tmpDir, { recursive: true });
    await chmod(tmpDir, 0o1777);
    await mkdir(controlDir, { recursive: true, mode: 0o755 });
    await writeAccountFiles(controlDir, user, homeDir);
    return {
      workspaceDir: await realpath(workspaceDir),
      homeDir: await realpath(homeDir),
      tmpDir: await realpath(tmpDir),
      controlDir: await realpath(controlDir),
    };
  }

  private scope(
    dirs: { workspaceDir: string; homeDir: string; tmpDir: string; controlDir: string },
    network: IsolatedNetwork | null,
    cgroup: SandboxScope['cgroup'],
    rlimits: () => string[],
    user: Owner | null,
  ): SandboxScope {
    return { ...dirs, network, cgroup, rlimits, user };
  }

  /** The environment of a sandboxed process: the user's own bin directories first, npm's global packages in the home. */
  private baseEnv(homeDir: string, sandboxed: boolean): Record<string, string> {
    const nodeBin = path.dirname(realpathSync(process.execPath));
    const systemPath = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
    return {
      PATH: sandboxed
        ? [
            path.join(homeDir, '.local', 'bin'),
            path.join(homeDir, '.npm-global', 'bin'),
            ...(systemPath.includes(nodeBin) ? [] : [nodeBin]),
            ...systemPath,
          ].join(':')
        : (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'),
      LANG: process.env.LANG ?? 'C.UTF-8',
      HOME: homeDir,
      ...(sandboxed ? { NPM_CONFIG_PREFIX: path.join(homeDir, '.npm-global'), USER: 'user', LOGNAME: 'user' } : {}),
    };
  }

  async fork(sourceId: string, targetId: string, snapshot: WorkspaceSnapshot, eventId: number): Promise<void> {
    assertConversationId(sourceId);
    assertConversationId(targetId);
    const { sandbox } = await this.protections;
    const source = this.paths(sourceId).workspaceDir;
    if (!(await lstat(path.join(source, '.git')).catch(() => null))?.isDirectory())
      throw new MissingWorkspaceError(`There is no workspace of conversation ${sourceId} on this server`);
    const user = sandbox.sandboxed ? sandboxUser(targetId) : null;
    const dirs = await this.directories(targetId, user);
    await copyRepository(source, dirs.workspaceDir, user);
    // Its own git config (and so its filters) is the user's: git runs confined to the new workspace, like every git call.
    const scope = this.scope(dirs, null, null, () => [], user);
    const git = new Git({
      workspaceDir: dirs.workspaceDir,
      env: this.baseEnv(dirs.homeDir, sandbox.sandboxed),
      wrap: (argv, network) => sandbox.wrap(argv, scope, { network }),
    });
    await git.restore(snapshot, eventId);
  }

  private async create(id: string, givenEnv: Record<string, string>): Promise<LocalSession> {
    const found = await this.protections;
    const { sandbox } = found;
    if (this.requireIsolation && (found.sandboxProblem || found.networkProblem))
      throw new IsolationUnavailableError(
        found.sandboxProblem
          ? `This server cannot sandbox conversations (${found.sandboxProblem}): install bubblewrap and passt (apt-get install bubblewrap passt).`
          : `This server cannot give conversations a network of their own (${found.networkProblem}): install passt (apt-get install passt).`,
      );
    const user = sandbox.sandboxed ? sandboxUser(id) : null;
    const dirs = await this.directories(id, user);
    const ports = await this.ports.reserve(id);
    const networkTools = found.network;
    // In a namespace of its own the kernel keeps the ports forwarded to it; on the host's network it takes free ones at each start.
    const kernelPorts = networkTools ? await freeKernelPorts([...ports, ...this.hostPorts]) : undefined;
    let network: IsolatedNetwork | null = null;
    let cgroup: SandboxScope['cgroup'] = null;
    let appForwards: AppForward[] | null = null;
    try {
      if (networkTools && kernelPorts) {
        appForwards = await appForwardPorts(ports, [...ports, ...this.hostPorts, ...Object.values(kernelPorts)]);
        network = await IsolatedNetwork.start(
          networkTools,
          { public: [], loopback: connectedKernelPorts(kernelPorts), apps: appForwards, toHost: this.hostPorts },
          dirs.controlDir,
        );
      }
      cgroup = (await found.cgroups?.create(id, cgroupLimits(this.limits))) ?? null;
    } catch (error) {
      await network?.stop();
      this.ports.release(id);
      throw error;
    }
    let watch: LimitWatch | null = null;
    const scope = this.scope(dirs, network, cgroup, () => watch?.rlimits() ?? [], user);
    // Only what the workspace needs: the server's own environment holds its secrets.
    const env: Record<string, string> = {
      ...this.baseEnv(dirs.homeDir, sandbox.sandboxed),
      TERM: 'xterm-256color',
      // Pagers would wait for a keypress that never comes.
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      ...givenEnv,
      HOME: dirs.homeDir,
      APP_PORT_1: String(ports[0]),
      APP_PORT_2: String(ports[1]),
    };
    const wrap = (argv: readonly string[]) => sandbox.wrap(argv, scope);
    const shell = new Shell({ cwd: dirs.workspaceDir, env, controlDir: dirs.controlDir, wrap });
    const terminals = new UserTerminals({ wrap, env: () => env, cwd: dirs.workspaceDir });
    // Without a control group, the shells' processes are the ones known to write.
    const processesOf = async () =>
      (await cgroup?.processes()) ?? [
        ...shell.processes(),
        ...terminals.list().flatMap((terminal) => terminal.processes()),
      ];
    watch = sandbox.sandboxed
      ? new LimitWatch({
          limits: this.limits,
          cgroup,
          ownUser: user !== null,
          measureDisk: () =>
            diskUsage(
              sandbox.wrap(['du', '-sxcB1', dirs.workspaceDir, dirs.homeDir, '/tmp'], scope, { network: false }),
              env,
            ),
          limitFileSize: async (bytes) =>
            setFileSizeLimit(await processesOf(), bytes, { python: this.python, setpriv: found.setpriv, user }),
          stopWriters: async () => stopWriters(await processesOf()),
        })
      : null;
    try {
      const git = new Git({
        workspaceDir: dirs.workspaceDir,
        env,
        wrap: (argv, withNetwork) => sandbox.wrap(argv, scope, { network: withNetwork }),
      });
      await git.init(GIT_IDENTITY);
      git.warmSnapshots();
      await shell.start();
      await watch?.start();
      const session: LocalSession = new LocalSession({
        conversationId: id,
        workspaceDir: dirs.workspaceDir,
        owner: user,
        ports,
        appForwards,
        sandboxed: sandbox.sandboxed,
        wrap,
        env,
        shell,
        git,
        limits: watch,
        kernel: new PythonKernel({
          python: this.python,
          workspaceDir: dirs.workspaceDir,
          connectionDir: { host: dirs.tmpDir, kernel: sandbox.sandboxed ? '/tmp' : dirs.tmpDir },
          owner: user,
          env,
          wrap,
          ports: kernelPorts,
        }),
        terminals,
        processes: processesOf,
        browser: new BrowserTab(
          this.browser,
          conversationRoute({
            ports,
            ownApp: (port) => session.browserAppTarget(port),
            policy: this.browserPolicy,
          }),
        ),
        network,
        pythonUnavailable: () => this.pythonUnavailable(),
        onStopped: async () => {
          watch?.stop();
          await cgroup?.remove();
          if (this.sessions.get(id) === session) this.sessions.delete(id);
          this.ports.release(id);
        },
      });
      this.sessions.set(id, session);
      return session;
    } catch (error) {
      watch?.stop();
      await shell.kill();
      await network?.stop();
      await cgroup?.remove();
      this.ports.release(id);
      throw error;
    }
  }
}

/**
 * The host's loopback ports that lead to each app port in the conversation's namespace: one for
 * IPv4 and, where the host has an IPv6 loopback, one for IPv6, none of them `taken`.
 */
async function appForwardPorts(ports: readonly number[], taken: readonly number[]): Promise<AppForward[]> {
  const used = new Set(taken);
  const pick = async (host: string) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const port = await freePort(host).catch(() => null);
      if (port === null) return null;
      if (!used.has(port)) {
        used.add(port);
        return port;
      }
    }
    throw new Error('no free loopback port to forward a served app to');
  };
  const forwards: AppForward[] = [];
  for (const port of ports) {
    const v4 = await pick('127.0.0.1');
    if (v4 === null) throw new Error('the loopback address 127.0.0.1 cannot be bound');
    forwards.push({ port, v4, v6: await pick('::1') });
  }
  return forwards;
}

/** Gives a conversation's directory to its user: at once when new, recursively (links themselves, never followed) when it had another owner. */
async function giveTo(dir: string, user: Owner): Promise<void> {
  const stats = await lstat(dir);
  if (stats.uid === user.uid && stats.gid === user.gid) return;
  await new Promise<void>((resolve, reject) =>
    execFile('chown', ['-hR', '--', `${user.uid}:${user.gid}`, dir], (error) => (error ? reject(error) : resolve())),
  );
}

/** The total of `du -c`'s last line; 0 when it printed none. */
function diskUsage(argv: string[], env: Record<string, string>): Promise<number> {
  const [file = '', ...args] = argv;
  return new Promise((resolve) => {
    execFile(file, args, { env, encoding: 'utf8', maxBuffer: 1024 * 1024, timeout: 60_000 }, (_error, stdout) => {
      const total = /(\d+)\s+total\s*$/.exec(stdout ?? '');
      resolve(total ? Number(total[1]) : 0);
    });
  });
}
