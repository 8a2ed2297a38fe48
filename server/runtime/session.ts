import { execFile } from 'node:child_process';
import path from 'node:path';
import type { Owner } from './beneath.ts';
import type { BrowserTab } from './browser.ts';
import { Editor } from './editor.ts';
import { WorkspaceFiles } from './files.ts';
import type { Git } from './git.ts';
import { listeners, servedAddress } from './listening.ts';
import type { LimitWatch } from './limit-watch.ts';
import type { LimitHit } from './limits.ts';
import type { AppForward, IsolatedNetwork } from './network.ts';
import type { PythonKernel } from './python-kernel.ts';
import type { Shell } from './shell.ts';
import { servedApps, type ServedApp } from './served-apps.ts';
import type { UserTerminals } from './user-terminals.ts';
import type {
  BrowserAction,
  BrowserState,
  CommandResult,
  EditorInput,
  EditorResult,
  FileChange,
  RepositorySource,
  WorkspaceSnapshot,
  PythonResult,
  RunCommandInput,
  RuntimeSession,
} from './types.ts';

const DEFAULT_PYTHON_TIMEOUT_S = 120;

/** The directory packs larger than the caller's limit. */
export class ArchiveTooLargeError extends Error {
  override name = 'ArchiveTooLargeError';
  constructor(readonly directory: string) {
    super(`${directory} is too large to pack`);
  }
}
const MAX_PYTHON_TIMEOUT_S = 600;

export interface LocalSessionParts {
  conversationId: string;
  /** Real path of the workspace. */
  workspaceDir: string;
  /** The host user the sandbox's files belong to (what the server writes for it too); null: the server's own. */
  owner: Owner | null;
  ports: readonly [number, number];
  /** Where the host reaches each app port in the namespace; null when apps listen on the host's own ports (no namespace). */
  appForwards: readonly AppForward[] | null;
  sandboxed: boolean;
  /** The argv that runs `argv` in this workspace's sandbox. */
  wrap: (argv: readonly string[]) => string[];
  /** The runtime's environment (the user's secrets, HOME, ports). */
  env: Record<string, string>;
  shell: Shell;
  git: Git;
  /** The conversation's limits as they are reached; null when its processes are not sandboxed. */
  limits: LimitWatch | null;
  kernel: PythonKernel;
  browser: BrowserTab;
  /** The user's own terminals (the Terminal tab), each a bash of its own beside the agent's shell. */
  terminals: UserTerminals;
  /** The conversation's network namespace, stopped after its processes; null when they share the host's network. */
  network: IsolatedNetwork | null;
  /** Null when the kernel can run, else why not (shared by all sessions of the runtime). */
  pythonUnavailable: () => Promise<string | null>;
  /** Every process of the conversation (its control group's, or its shells' trees). */
  processes: () => Promise<number[]>;
  /** Called once the session's processes are gone (the runtime forgets it and frees its ports). */
  onStopped: () => Promise<void>;
}

/** One conversation's running workspace: the parts wired together behind the RuntimeSession interface. */
export class LocalSession implements RuntimeSession {
  readonly conversationId: string;
  readonly workspaceDir: string;
  readonly ports: readonly [number, number];
  readonly sandboxed: boolean;
  private readonly files: WorkspaceFiles;
  private readonly edits: Editor;
  private stopping: Promise<void> | null = null;
  private lastSnapshot: WorkspaceSnapshot | null = null;

  constructor(private readonly parts: LocalSessionParts) {
    this.conversationId = parts.conversationId;
    this.workspaceDir = parts.workspaceDir;
    this.ports = parts.ports;
    this.sandboxed = parts.sandboxed;
    this.files = new WorkspaceFiles(parts.workspaceDir, parts.owner);
    this.edits = new Editor(this.files);
  }

  get terminals(): UserTerminals {
    return this.parts.terminals;
  }

  get proxiedApps(): boolean {
    return this.parts.appForwards !== null;
  }

  async servedHosts(): Promise<string[]> {
    const found = await listeners(this.parts.network?.procDir ?? '/proc/self');
    return this.ports.flatMap((port) => servedAddress(found, port) ?? []);
  }

  async servedPorts(): Promise<number[]> {
    const found = await listeners(this.parts.network?.procDir ?? '/proc/self');
    return this.ports.filter((port) => servedAddress(found, port) !== null);
  }

  async servedApps(): Promise<ServedApp[]> {
    const found = await listeners(this.parts.network?.procDir ?? '/proc/self');
    return servedApps(found, this.ports, await this.parts.processes(), this.workspaceDir);
  }

  async appTarget(port: number): Promise<{ host: string; port: number } | null> {
    const forward = this.parts.appForwards?.find((candidate) => candidate.port === port);
    if (!forward || !this.parts.network) return null;
    const served = servedAddress(await listeners(this.parts.network.procDir), port);
    if (served?.startsWith('http://127.0.0.1')) return { host: '127.0.0.1', port: forward.v4 };
    if (served && forward.v6 !== null) return { host: '::1', port: forward.v6 };
    return null;
  }

  /** Where the agent's browser reaches the app on reserved `port`: its forward, or the host's loopback it listens on. */
  async browserAppTarget(port: number): Promise<{ host: string; port: number } | null> {
    if (this.parts.appForwards) return this.appTarget(port);
    const served = servedAddress(await listeners('/proc/self'), port);
    if (!served) return null;
    return { host: served.startsWith('http://127.0.0.1') ? '127.0.0.1' : '::1', port };
  }

  /** The command's result, with a note for each limit reached since the last one (out of memory, processes, disk). */
  async runCommand(input: RunCommandInput): Promise<CommandResult> {
    const { limits, shell } = this.parts;
    if (!limits) return shell.run(input);
    const { value, hits } = await limits.around(() => shell.run(input));
    if (!hits.length) return value;
    return { ...value, output: [value.output, ...hits.map((hit) => `[${hit.message}]`)].filter(Boolean).join('\n') };
  }

  onLimit(listener: (hit: LimitHit) => void): () => void {
    return this.parts.limits?.onHit(listener) ?? (() => undefined);
  }

  interrupt(): Promise<void> {
    return this.parts.shell.interrupt();
  }

  onOutput(listener: (chunk: string) => void): () => void {
    return this.parts.shell.onOutput(listener);
  }

  editor(input: EditorInput): Promise<EditorResult> {
    return this.edits.run(input);
  }

  listFiles(dir?: string): Promise<string[]> {
    return this.files.list(dir);
  }

  readFile(file: string): Promise<string> {
    return this.files.read(file);
  }

  writeFile(file: string, content: string): Promise<void> {
    return this.files.write(file, content);
  }

  putFile(file: string, data: Uint8Array): Promise<void> {
    return this.files.write(file, data);
  }

  zip(): Promise<Uint8Array> {
    return this.files.zip();
  }

  async archive(directory: string, limitBytes: number): Promise<Uint8Array> {
    const target = path.resolve(this.workspaceDir, directory);
    if (target !== this.workspaceDir && !target.startsWith(this.workspaceDir + path.sep))
      throw new Error(`Path is outside the workspace: ${directory}`);
    // tar runs in the sandbox: whatever links the workspace holds, it sees only what the sandbox does.
    const [file = '', ...args] = this.parts.wrap(['tar', '-czf', '-', '--exclude=./.git', '-C', target, '.']);
    return new Promise((resolve, reject) => {
      execFile(
        file,
        args,
        { env: this.parts.env, encoding: 'buffer', maxBuffer: limitBytes },
        (error, stdout, stderr) => {
          if (!error) resolve(new Uint8Array(stdout));
          else if (error.message.includes('maxBuffer')) reject(new ArchiveTooLargeError(directory));
          else reject(new Error(stderr.toString('utf8').trim() || error.message));
        },
      );
    });
  }

  sandboxedProcess(argv: readonly string[]): { argv: string[]; env: Record<string, string> } | null {
    return this.sandboxed ? { argv: this.parts.wrap(argv), env: { ...this.parts.env } } : null;
  }

  updateEnvironment(values: Record<string, string | null>): void {
    const invalid = Object.keys(values).find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
    if (invalid !== undefined) throw new Error(`Not an environment variable's name: ${invalid}`);
    // The object the shell, git and the kernel start their processes with.
    const { env } = this.parts;
    for (const [name, value] of Object.entries(values)) {
      if (value === null) delete env[name];
      else env[name] = value;
    }
    this.parts.shell.updateEnvironment(values);
    this.parts.kernel.updateEnvironment(values);
  }

  checkoutRepository(source: RepositorySource): Promise<boolean> {
    return this.parts.git.checkout(source);
  }

  gitChanges(): Promise<FileChange[]> {
    return this.parts.git.changes();
  }

  async snapshot(name: string): Promise<WorkspaceSnapshot | null> {
    const taken = await this.parts.git.snapshot(name, this.lastSnapshot?.tree ?? null).catch(() => null);
    const last = this.lastSnapshot;
    if (!taken || (last && taken.tree === last.tree && taken.head === last.head && taken.branch === last.branch))
      return null;
    this.lastSnapshot = taken;
    return taken;
  }

  async gitDiff(file: string): Promise<{ original: string; modified: string }> {
    const relative = path.relative(this.workspaceDir, await this.files.resolve(file));
    const [original, modified] = await Promise.all([
      this.parts.git.committed(relative),
      this.files.read(relative).catch(() => ''),
    ]);
    return { original, modified };
  }

  pythonUnavailable(): Promise<string | null> {
    return this.parts.pythonUnavailable();
  }

  async runPython(code: string, timeoutSeconds = DEFAULT_PYTHON_TIMEOUT_S): Promise<PythonResult> {
    const reason = await this.parts.pythonUnavailable();
    if (reason) throw new Error(reason);
    return this.parts.kernel.execute(code, Math.min(timeoutSeconds, MAX_PYTHON_TIMEOUT_S) * 1000);
  }

  browse(action: BrowserAction): Promise<BrowserState> {
    return this.parts.browser.act(action);
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.parts.git.close();
      await Promise.allSettled([
        this.parts.shell.kill(),
        this.parts.terminals.closeAll(),
        this.parts.kernel.stop(),
        this.parts.browser.close(),
      ]);
      await this.parts.network?.stop();
      await this.parts.onStopped();
    })();
    return this.stopping;
  }
}
