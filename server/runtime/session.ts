import path from 'node:path';
import type { BrowserTab } from './browser.ts';
import { Editor } from './editor.ts';
import { WorkspaceFiles } from './files.ts';
import type { Git } from './git.ts';
import { listeners, servedAddress } from './listening.ts';
import type { IsolatedNetwork } from './network.ts';
import type { PythonKernel } from './python-kernel.ts';
import type { Shell } from './shell.ts';
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
const MAX_PYTHON_TIMEOUT_S = 600;

export interface LocalSessionParts {
  conversationId: string;
  /** Real path of the workspace. */
  workspaceDir: string;
  ports: readonly [number, number];
  sandboxed: boolean;
  /** The argv that runs `argv` in this workspace's sandbox. */
  wrap: (argv: readonly string[]) => string[];
  /** The runtime's environment (the user's secrets, HOME, ports). */
  env: Record<string, string>;
  shell: Shell;
  git: Git;
  kernel: PythonKernel;
  browser: BrowserTab;
  /** The conversation's network namespace, stopped after its processes; null when they share the host's network. */
  network: IsolatedNetwork | null;
  /** Null when the kernel can run, else why not (shared by all sessions of the runtime). */
  pythonUnavailable: () => Promise<string | null>;
  /** Called once the session's processes are gone (the runtime forgets it and frees its ports). */
  onStopped: () => void;
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
    this.files = new WorkspaceFiles(parts.workspaceDir);
    this.edits = new Editor(this.files);
  }

  async servedHosts(): Promise<string[]> {
    const found = await listeners(this.parts.network?.procDir ?? '/proc/self');
    return this.ports.flatMap((port) => servedAddress(found, port) ?? []);
  }

  runCommand(input: RunCommandInput): Promise<CommandResult> {
    return this.parts.shell.run(input);
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

  async snapshot(eventId: number): Promise<WorkspaceSnapshot | null> {
    const taken = await this.parts.git.snapshot(String(eventId), this.lastSnapshot?.tree ?? null).catch(() => null);
    const last = this.lastSnapshot;
    if (!taken || (last && taken.tree === last.tree && taken.head === last.head && taken.branch === last.branch))
      return null;
    this.lastSnapshot = taken;
    return taken;
  }

  async gitDiff(file: string): Promise<{ original: string; modified: string }> {
    const target = await this.files.resolve(file);
    return this.parts.git.diff(path.relative(this.workspaceDir, target));
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
      await Promise.allSettled([this.parts.shell.kill(), this.parts.kernel.stop(), this.parts.browser.close()]);
      await this.parts.network?.stop();
      this.parts.onStopped();
    })();
    return this.stopping;
  }
}
