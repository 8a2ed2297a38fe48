import { randomUUID } from 'node:crypto';
import type * as NodePty from 'node-pty';
import type { IPty } from 'node-pty';
import { lazyPackage } from '../shared/lazy-package.ts';
import { killTree, processTree } from './processes.ts';

const nodePty = lazyPackage<typeof NodePty>('node-pty');

/** Terminals one conversation may have open at once: each is a bash and a pseudo-terminal. */
export const MAX_TERMINALS = 5;
/** What a terminal keeps of its output for a tab that attaches later (a reload, a window docked back). */
const SCROLLBACK_CHARS = 256 * 1024;
const MIN_SIZE = { cols: 10, rows: 2 };
const MAX_SIZE = { cols: 1000, rows: 500 };

export interface TerminalSize {
  cols: number;
  rows: number;
}

/** What a terminal tells a tab that watches it: output, or that its shell ended. */
export type TerminalOutput = { type: 'output'; data: string } | { type: 'exit'; exit_code: number };

export class TooManyTerminalsError extends Error {}

const clampSize = ({ cols, rows }: TerminalSize): TerminalSize => ({
  cols: Math.min(MAX_SIZE.cols, Math.max(MIN_SIZE.cols, Math.trunc(cols))),
  rows: Math.min(MAX_SIZE.rows, Math.max(MIN_SIZE.rows, Math.trunc(rows))),
});

/**
 * One interactive bash of the user's in the conversation's sandbox, on a pseudo-terminal of its
 * own: the agent's shell never waits on it, nor it on the agent. It lives until it is closed,
 * its shell exits or the runtime stops, whether or not a tab watches it.
 */
export class UserTerminal {
  private scrollback = '';
  private exitCode: number | null = null;
  private readonly watchers = new Set<(output: TerminalOutput) => void>();

  constructor(
    readonly id: string,
    private readonly pty: IPty,
  ) {
    pty.onData((data) => {
      this.scrollback = (this.scrollback + data).slice(-SCROLLBACK_CHARS);
      for (const watcher of this.watchers) watcher({ type: 'output', data });
    });
    pty.onExit(({ exitCode }) => {
      this.exitCode = exitCode;
      for (const watcher of this.watchers) watcher({ type: 'exit', exit_code: exitCode });
      this.watchers.clear();
    });
  }

  /** The shell's processes and everything they started. */
  processes(): number[] {
    return this.exitCode === null ? processTree(this.pty.pid) : [];
  }

  get exited(): boolean {
    return this.exitCode !== null;
  }

  /** Sends what the terminal showed so far, then everything it prints, to `watcher`; returns the way to stop. */
  watch(watcher: (output: TerminalOutput) => void): () => void {
    if (this.scrollback) watcher({ type: 'output', data: this.scrollback });
    if (this.exitCode !== null) watcher({ type: 'exit', exit_code: this.exitCode });
    else this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  write(data: string): void {
    if (this.exitCode === null) this.pty.write(data);
  }

  resize(size: TerminalSize): void {
    if (this.exitCode !== null) return;
    const { cols, rows } = clampSize(size);
    this.pty.resize(cols, rows);
  }

  /** Holds the shell's output while a watcher cannot take more (the pseudo-terminal then blocks its writers). */
  pause(): void {
    this.pty.pause();
  }

  resume(): void {
    this.pty.resume();
  }

  async kill(): Promise<void> {
    if (this.exitCode === null) await killTree(this.pty.pid);
  }
}

/** A conversation's user terminals. */
export class UserTerminals {
  private readonly open = new Map<string, UserTerminal>();
  private closed = false;

  constructor(
    private readonly options: {
      /** The argv that runs `argv` in the conversation's sandbox. */
      wrap: (argv: readonly string[]) => string[];
      /** Read at each start: the runtime's environment as it is then. */
      env: () => Record<string, string>;
      cwd: string;
    },
  ) {}

  list(): UserTerminal[] {
    return [...this.open.values()];
  }

  get(id: string): UserTerminal | null {
    return this.open.get(id) ?? null;
  }

  start(size: TerminalSize): UserTerminal {
    if (this.closed) throw new Error('The runtime is stopping');
    if (this.open.size >= MAX_TERMINALS)
      throw new TooManyTerminalsError(`At most ${MAX_TERMINALS} terminals can be open at once: close one first.`);
    const { cols, rows } = clampSize(size);
    const env = this.options.env();
    const [file, ...args] = this.options.wrap(['bash', '-i']);
    if (!file) throw new Error('Empty shell command line');
    const pty = nodePty().spawn(file, args, { name: 'xterm-256color', cols, rows, cwd: this.options.cwd, env });
    const terminal = new UserTerminal(randomUUID(), pty);
    this.open.set(terminal.id, terminal);
    return terminal;
  }

  async close(id: string): Promise<boolean> {
    const terminal = this.open.get(id);
    if (!terminal) return false;
    this.open.delete(id);
    await terminal.kill();
    return true;
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.open.keys()].map((id) => this.close(id)));
  }
}
