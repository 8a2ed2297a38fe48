import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { mkdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { BrowserTab, SharedBrowser } from './browser.ts';
import { AppHost } from './hosted-app.ts';
import { Git } from './git.ts';
import { assertConversationId } from './paths.ts';
import { PortPool } from './ports.ts';
import { copyRepository } from './repository-copy.ts';
import { detectNetworkIsolation, IsolatedNetwork, type NetworkTools } from './network.ts';
import { connectedKernelPorts, freeKernelPorts, PythonKernel } from './python-kernel.ts';
import { detectBwrap, Sandbox, type SandboxScope } from './sandbox.ts';
import { LocalSession } from './session.ts';
import { Shell } from './shell.ts';
import { MissingWorkspaceError, type Runtime, type RuntimeSession, type WorkspaceSnapshot } from './types.ts';
import type { Logger } from '../shared/logger.ts';

export interface LocalRuntimeOptions {
  /** Holds one workspace per conversation (`<rootDir>/<conversationId>`) and their homes (`<rootDir>/.homes/<id>`). */
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
   * Directories the sandbox hides besides rootDir: the server's data directory and
   * anything else holding secrets. Default: rootDir's parent (unless that is '/').
   */
  hiddenDirs?: string[];
  /** Ports on the host's loopback that sandboxed commands may still reach (a Git server or package mirror on this machine). */
  hostPorts?: readonly number[];
  /** The interpreter with ipykernel (default /usr/bin/python3: the `python3` on PATH may be another one). */
  python?: string;
  logger?: Pick<Logger, 'warn'>;
}

const GIT_IDENTITY = { name: 'Atelier', email: 'agent@atelier.local' };
const consoleLogger: Pick<Logger, 'warn'> = { warn: (details, message) => console.warn(message, details) };

/**
 * Runs each conversation's workspace on this machine: a directory that is a git
 * repository, a bash in a pseudo-terminal, a Jupyter kernel, a page in a shared headless
 * Chromium and two reserved ports, with commands, git and Python confined by bubblewrap
 * where available. The browser runs outside bwrap, shared by all conversations (one
 * context each), and may only be sent to http(s) addresses so it cannot read local files.
 */
export class LocalRuntime implements Runtime {
  private readonly rootDir: string;
  /** Settles once bubblewrap was probed, in the background from the runtime's creation on. */
  private readonly sandbox: Promise<Sandbox>;
  private readonly ports: PortPool;
  private readonly browser = new SharedBrowser();
  private readonly python: string;
  private readonly hostPorts: readonly number[];
  private readonly sessions = new Map<string, LocalSession>();
  private readonly starting = new Map<string, Promise<LocalSession>>();
  private pythonCheck: Promise<string | null> | null = null;
  private networkCheck: Promise<NetworkTools | null> | null = null;
  private readonly logger: Pick<Logger, 'warn'>;
  /** Local deployments: each app in `<rootDir>/.apps/<key>`, hidden from conversations like the workspaces. */
  readonly apps: AppHost;

  constructor(options: LocalRuntimeOptions) {
    mkdirSync(options.rootDir, { recursive: true });
    // Real paths throughout: bwrap binds and the workspace confinement compare them.
    this.rootDir = realpathSync(options.rootDir);
    mkdirSync(path.join(this.rootDir, '.homes'), { recursive: true, mode: 0o700 });
    const parent = path.dirname(this.rootDir);
    const hiddenDirs = options.hiddenDirs ?? (parent === path.parse(parent).root ? [] : [parent]);
    const logger = options.logger ?? consoleLogger;
    this.logger = logger;
    const bwrap =
      options.sandbox === 'off'
        ? Promise.resolve(null)
        : detectBwrap().then((found) => {
            if (!found.path)
              logger.warn(
                { sandboxed: false, reason: found.problem },
                'Runtime commands run without a sandbox: they can read and write anything the server can',
              );
            return found.path;
          });
    this.sandbox = bwrap.then((found) => new Sandbox(found, this.rootDir, hiddenDirs));
    this.ports = new PortPool(options.portRange ?? [20000, 26999]);
    this.python = options.python ?? '/usr/bin/python3';
    this.hostPorts = options.hostPorts ?? [];
    this.apps = new AppHost(path.join(this.rootDir, '.apps'), async () => {
      const sandbox = await this.sandbox;
      return {
        sandbox,
        networkTools: sandbox.sandboxed ? await this.networkTools() : null,
        startNetwork: (tools, port, controlDir) =>
          IsolatedNetwork.start(tools, { public: [port], loopback: [], toHost: [] }, controlDir),
      };
    });
  }

  /** Whether commands run in bubblewrap (known once it was probed). */
  async isSandboxed(): Promise<boolean> {
    return (await this.sandbox).sandboxed;
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
    await rm(this.workspacePath(conversationId), { recursive: true, force: true });
    await rm(this.homePath(conversationId), { recursive: true, force: true });
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.starting.values()]);
    await Promise.allSettled([...this.sessions.values()].map((session) => session.stop()));
    await this.apps.stopAll();
    await this.browser.close();
  }

  private workspacePath(id: string): string {
    return path.join(this.rootDir, id);
  }

  /** Outside the workspace so caches (npm, pip) and dotfiles stay out of git and the zip; hidden from other conversations like the workspaces. */
  private homePath(id: string): string {
    return path.join(this.rootDir, '.homes', id);
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

  /** pasta and nsenter when sandboxed commands can get a network of their own; checked once per runtime, with a warning when not. */
  private networkTools(): Promise<NetworkTools | null> {
    this.networkCheck ??= detectNetworkIsolation(path.join(this.rootDir, '.homes')).then((found) => {
      if ('tools' in found) {
        if (found.dnsProblem)
          this.logger.warn(
            { networkIsolated: true, reason: found.dnsProblem },
            'Sandboxed commands cannot resolve names',
          );
        return found.tools;
      }
      this.logger.warn(
        { networkIsolated: false, reason: found.problem },
        "Sandboxed commands share the host's network: they can reach services on its loopback",
      );
      return null;
    });
    return this.networkCheck;
  }

  /** The conversation's workspace and home, created when missing (real paths). */
  private async directories(id: string) {
    await mkdir(this.workspacePath(id), { recursive: true });
    await mkdir(this.homePath(id), { recursive: true, mode: 0o700 });
    const homeDir = await realpath(this.homePath(id));
    const tmpDir = path.join(homeDir, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const controlDir = path.join(homeDir, '.atelier');
    await mkdir(controlDir, { recursive: true });
    return { workspaceDir: await realpath(this.workspacePath(id)), homeDir, tmpDir, controlDir };
  }

  async fork(sourceId: string, targetId: string, snapshot: WorkspaceSnapshot, eventId: number): Promise<void> {
    assertConversationId(sourceId);
    assertConversationId(targetId);
    const sourceGit = path.join(this.workspacePath(sourceId), '.git');
    if (!existsSync(sourceGit))
      throw new MissingWorkspaceError(`There is no workspace of conversation ${sourceId} on this server`);
    const { workspaceDir, homeDir, tmpDir } = await this.directories(targetId);
    const sandbox = await this.sandbox;
    await copyRepository(sourceGit, path.join(workspaceDir, '.git'));
    // Its own git config (and so its filters) is the user's: git runs confined to the new workspace, like every git call.
    const scope: SandboxScope = { workspaceDir, homeDir, tmpDir, network: null };
    const git = new Git({
      workspaceDir,
      env: {
        PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
        LANG: process.env.LANG ?? 'C.UTF-8',
        HOME: homeDir,
      },
      wrap: (argv, network) => sandbox.wrap(argv, scope, { network }),
    });
    await git.restore(snapshot, eventId);
  }

  private async create(id: string, givenEnv: Record<string, string>): Promise<LocalSession> {
    const { workspaceDir, homeDir, tmpDir, controlDir } = await this.directories(id);
    const sandbox = await this.sandbox;
    const ports = await this.ports.reserve(id);
    const networkTools = sandbox.sandboxed ? await this.networkTools() : null;
    // In a namespace of its own the kernel keeps the ports forwarded to it; on the host's network it takes free ones at each start.
    const kernelPorts = networkTools ? await freeKernelPorts([...ports, ...this.hostPorts]) : undefined;
    let network: IsolatedNetwork | null = null;
    try {
      if (networkTools && kernelPorts)
        network = await IsolatedNetwork.start(
          networkTools,
          { public: ports, loopback: connectedKernelPorts(kernelPorts), toHost: this.hostPorts },
          controlDir,
        );
    } catch (error) {
      this.ports.release(id);
      throw error;
    }
    const scope: SandboxScope = { workspaceDir, homeDir, tmpDir, network };
    // Only what the workspace needs: the server's own environment holds its secrets.
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      LANG: process.env.LANG ?? 'C.UTF-8',
      TERM: 'xterm-256color',
      // Pagers would wait for a keypress that never comes.
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      ...givenEnv,
      HOME: scope.homeDir,
      APP_PORT_1: String(ports[0]),
      APP_PORT_2: String(ports[1]),
    };
    const shell = new Shell({
      cwd: scope.workspaceDir,
      env,
      controlDir,
      wrap: (argv) => sandbox.wrap(argv, scope),
    });
    try {
      const git = new Git({
        workspaceDir: scope.workspaceDir,
        env,
        wrap: (argv, network) => sandbox.wrap(argv, scope, { network }),
      });
      await git.init(GIT_IDENTITY);
      await shell.start();
      const session = new LocalSession({
        conversationId: id,
        workspaceDir: scope.workspaceDir,
        ports,
        sandboxed: sandbox.sandboxed,
        wrap: (argv) => sandbox.wrap(argv, scope),
        env,
        shell,
        git,
        kernel: new PythonKernel({
          python: this.python,
          workspaceDir: scope.workspaceDir,
          controlDir,
          env,
          wrap: (argv) => sandbox.wrap(argv, scope),
          ports: kernelPorts,
        }),
        browser: new BrowserTab(this.browser),
        network,
        pythonUnavailable: () => this.pythonUnavailable(),
        onStopped: () => {
          if (this.sessions.get(id) === session) this.sessions.delete(id);
          this.ports.release(id);
        },
      });
      this.sessions.set(id, session);
      return session;
    } catch (error) {
      await shell.kill();
      await network?.stop();
      this.ports.release(id);
      throw error;
    }
  }
}
