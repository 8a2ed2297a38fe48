import type { HostedApp, HostedAppSpec } from './hosted-app.ts';
import type { LimitHit } from './limits.ts';
import type { ServedApp } from './served-apps.ts';
import type { UserTerminals } from './user-terminals.ts';

/**
 * The runtime boundary (ARCHITECTURE.md §7, §8): everything the agent and the
 * per-conversation API calls need from a conversation's workspace. The local runtime
 * implements it with a directory, a pseudo-terminal, git, a Jupyter kernel and a headless
 * Chromium; a container or Kubernetes runtime can implement it later.
 */

export interface CommandResult {
  /** What the shell printed for this command (ANSI sequences removed). */
  output: string;
  /** The command's exit code; -1 while it is still running (timed out without finishing). */
  exitCode: number;
  /** True when the command is still running: send more input, poll with an empty command, or interrupt. */
  running: boolean;
  /** Working directory after the command, inside the workspace. */
  cwd: string;
}

export interface RunCommandInput {
  command: string;
  /** Send `command` as input to the running process instead of starting a new command. */
  isInput?: boolean;
  /**
   * Seconds to wait for completion before answering with running=true (default 120; hard max 600).
   * Without it, the call also answers once the command printed nothing for 30 s.
   */
  timeoutSeconds?: number;
  signal?: AbortSignal;
}

export type EditorCommand = 'view' | 'create' | 'str_replace' | 'insert' | 'undo_edit';

export interface EditorInput {
  command: EditorCommand;
  /** Path inside the workspace (absolute under the workspace, or relative to it). */
  path: string;
  file_text?: string;
  old_str?: string;
  new_str?: string;
  insert_line?: number;
  view_range?: [number, number];
}

export interface EditorResult {
  /** Text for the model: the view, or a confirmation with a snippet. */
  output: string;
  /** Unified diff of the change (empty for view). */
  diff: string;
  oldContent: string | null;
  newContent: string | null;
}

export interface FileChange {
  path: string;
  status: 'A' | 'D' | 'M' | 'R' | 'U';
}

export interface PythonResult {
  output: string;
  /** Images the cell displayed, as data: URLs. */
  images: string[];
}

export interface BrowserState {
  url: string;
  title: string;
  /** PNG screenshot as a data: URL. */
  screenshot: string;
  /** Visible text of the page, for the model. */
  text: string;
}

export type BrowserAction =
  | { action: 'navigate'; url: string }
  | { action: 'click'; selector: string }
  | { action: 'type'; selector: string; text: string }
  | { action: 'scroll'; dx?: number; dy: number }
  | { action: 'screenshot' };

/** A repository to check out into a fresh workspace. */
export interface RepositorySource {
  /** The clone URL, without credentials. */
  url: string;
  /** The branch; the remote's default branch when null. */
  branch: string | null;
  /** A git credential helper that answers from the runtime's environment, or null for anonymous access. */
  credentialHelper: string | null;
}

/** This node holds no workspace of the conversation (it never started here, or was deleted). */
export class MissingWorkspaceError extends Error {
  override name = 'MissingWorkspaceError';
}

/** A conversation may not start here: the protections the server requires (the hosted service's) are missing. The message says which, and how to install them. */
export class IsolationUnavailableError extends Error {
  override name = 'IsolationUnavailableError';
}

/** The workspace at one point of a conversation: its files as a git tree, and HEAD then. */
export interface WorkspaceSnapshot {
  /** The tree of the tracked and untracked files (ignored ones are not kept). */
  tree: string;
  /** The commit HEAD pointed at; null before the first commit. */
  head: string | null;
  /** The branch HEAD was on; null when detached. */
  branch: string | null;
  /** Files over the snapshot limit (50 MB), left out of this and every later snapshot. */
  skipped: string[];
}

/**
 * A step's observation extras with the workspace as the step left it (`workspace_snapshot`), when it
 * changed: the one way the agent, a replay and the terminal record a point a fork can start from.
 */
export async function withSnapshot<T extends object>(
  session: Pick<RuntimeSession, 'snapshot'>,
  eventId: number,
  extras: T,
): Promise<T & { workspace_snapshot?: WorkspaceSnapshot }> {
  const snapshot = await session.snapshot(String(eventId));
  return snapshot ? { ...extras, workspace_snapshot: snapshot } : extras;
}

/**
 * The `extras` of a user's message: the workspace as the user's own saves, uploads and terminal
 * commands left it since the last step, when they changed it (none otherwise). The snapshot is
 * named after the last event before the message, so a fork through that event keeps it too.
 */
export async function userChanges(
  session: Pick<RuntimeSession, 'snapshot'> | null,
  lastEventId: number,
): Promise<{ extras?: { workspace_snapshot: WorkspaceSnapshot } }> {
  const snapshot = await session?.snapshot(`${lastEventId}-user`);
  return snapshot ? { extras: { workspace_snapshot: snapshot } } : {};
}

export interface RuntimeSession {
  readonly conversationId: string;
  /** Absolute path of the workspace on the host. */
  readonly workspaceDir: string;
  /** The two ports reserved for apps the agent serves (web-hosts). */
  readonly ports: readonly [number, number];
  /** Whether commands run inside bubblewrap. */
  readonly sandboxed: boolean;
  /** The addresses of the reserved ports something listens on, from the namespace's own socket tables. */
  servedHosts(): Promise<string[]>;
  /** The reserved ports something listens on. */
  servedPorts(): Promise<number[]>;
  /**
   * True when the apps listen in the conversation's namespace, reached from the host only through
   * `appTarget` (the app proxy's upstream); false when they listen on the host's ports themselves.
   */
  readonly proxiedApps: boolean;
  /** The command lines that serve the reserved ports now (to start them again after a restart). */
  servedApps(): Promise<ServedApp[]>;
  /** Where on the host's loopback the app on reserved `port` answers now; null while nothing listens there. */
  appTarget(port: number): Promise<{ host: string; port: number } | null>;

  runCommand(input: RunCommandInput): Promise<CommandResult>;
  /** Ctrl-C to the running command. */
  interrupt(): Promise<void>;
  /** Every chunk the shell prints, for the terminal tab; returns an unsubscribe function. */
  onOutput(listener: (chunk: string) => void): () => void;
  /** The user's own terminals in this sandbox (the Terminal tab): they never wait on the agent's shell. */
  readonly terminals: UserTerminals;

  editor(input: EditorInput): Promise<EditorResult>;
  /** Entries of a directory (names; directories end with '/'), confined to the workspace. */
  listFiles(path?: string): Promise<string[]>;
  readFile(path: string): Promise<string>;
  writeFile(path: string, content: string): Promise<void>;
  /** Copies uploaded files into the workspace (archives are kept as files). */
  putFile(path: string, data: Uint8Array): Promise<void>;
  /** A zip of the workspace. */
  zip(): Promise<Uint8Array>;
  /**
   * A gzipped tar of a directory of the workspace without git's store, packed inside the
   * sandbox (links stay links); refused past `limitBytes` packed.
   */
  archive(directory: string, limitBytes: number): Promise<Uint8Array>;

  /** Checks `source` out into the workspace unless it has commits or a remote already; true when it did. */
  checkoutRepository(source: RepositorySource): Promise<boolean>;
  gitChanges(): Promise<FileChange[]>;
  /**
   * Records the workspace's files under `name`: the id of the event of the step that changed
   * them, or `<id>-user` for the user's changes after event `<id>` (a restore to an event drops
   * the names whose number is later). Null when nothing changed since the previous snapshot of
   * this session, or the workspace is no git repository.
   */
  snapshot(name: string): Promise<WorkspaceSnapshot | null>;
  gitDiff(path: string): Promise<{ original: string; modified: string }>;

  /** Null when the host has no Jupyter kernel (python3-ipykernel missing): the reason. */
  pythonUnavailable(): Promise<string | null>;
  runPython(code: string, timeoutSeconds?: number): Promise<PythonResult>;

  browse(action: BrowserAction): Promise<BrowserState>;

  /**
   * How to start a process of the user's own inside this workspace's sandbox (argv and the
   * runtime's environment), e.g. a stdio MCP server; null when commands are not sandboxed.
   */
  sandboxedProcess(argv: readonly string[]): { argv: string[]; env: Record<string, string> } | null;

  /**
   * Sets variables of the runtime's environment (e.g. a git token refreshed while it runs), or
   * removes those given null: for the processes started from now on, and in the shell and the
   * Python kernel before their next command or cell. Other processes already running keep theirs.
   */
  updateEnvironment(values: Record<string, string | null>): void;

  /** Every limit the conversation reaches (memory, processes, disk), as it is found: for the user's status messages. */
  onLimit(listener: (hit: LimitHit) => void): () => void;

  /** Stops processes (shell, kernel, browser); the workspace stays. */
  stop(): Promise<void>;
}

/** Apps run apart from any conversation (local deployments); see hosted-app.ts. */
export interface AppHosting {
  host(spec: HostedAppSpec): Promise<HostedApp>;
  restart(key: string): Promise<HostedApp>;
  remove(key: string): Promise<void>;
}

export interface Runtime {
  readonly apps: AppHosting;
  /** Starts (or returns the running) session of a conversation; creates the workspace (a git repository) on first start. */
  start(conversationId: string, options?: { env?: Record<string, string> }): Promise<RuntimeSession>;
  get(conversationId: string): RuntimeSession | undefined;
  /** Stops the session and deletes the workspace. */
  remove(conversationId: string): Promise<void>;
  /**
   * Creates the workspace of a new conversation `targetId` as the workspace of `sourceId` was at
   * `snapshot`, taken at event `eventId` (its repository copied, the snapshot's files checked out).
   * Throws when this node has no workspace of `sourceId`.
   */
  fork(sourceId: string, targetId: string, snapshot: WorkspaceSnapshot, eventId: number): Promise<void>;
  stopAll(): Promise<void>;
}

/** A file to write into a workspace: its path inside it and its bytes. */
export interface WorkspaceFile {
  path: string;
  content: Uint8Array;
}
