import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type * as NodePty from 'node-pty';
import type { IPty } from 'node-pty';
import { lazyPackage } from '../shared/lazy-package.ts';
import { killTree, processTree } from './processes.ts';
import { capText, completeLength, terminalText } from './terminal-text.ts';
import type { CommandResult, RunCommandInput } from './types.ts';

export interface ShellOptions {
  /** Working directory at start (the workspace). */
  cwd: string;
  env: Record<string, string>;
  /** Directory for the shell's rc file and the command file; must be visible to the shell (inside the sandbox). */
  controlDir: string;
  /** Turns the shell's argv into the argv to spawn (the sandbox). */
  wrap: (argv: string[]) => string[];
  /** When the caller gives no timeout, answer after this long without new output (default 30 s). */
  idleTimeoutMs?: number;
}

const nodePty = lazyPackage<typeof NodePty>('node-pty');
const DEFAULT_TIMEOUT_S = 120;
const MAX_TIMEOUT_S = 600;
const OUTPUT_LIMIT = 30_000;
// A command printing without end (`yes`, a chatty server) must not fill memory: past RAW_LIMIT
// characters only the first and the latest RAW_KEEP are kept until someone reads them.
const RAW_LIMIT = 1_000_000;
const RAW_KEEP = 100_000;
// The longest a prompt can be (its markers, a working directory of up to 4096 bytes, the visible part).
const PROMPT_MAX = 8192;
const START_TIMEOUT_MS = 15_000;
// A private OSC number: terminals (xterm.js in the terminal tab) ignore OSC codes they do not know, so the markers stay invisible.
const OSC = 7770;
const CONTROL_KEYS: Record<string, string> = { 'C-c': '\x03', 'C-d': '\x04', 'C-z': '\x1a', 'C-\\': '\x1c' };

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The rc file of the interactive bash. The prompt carries two invisible markers: the
 * first with the exit code and working directory, the second once the prompt is fully
 * printed, so "the command finished" is never confused with output that merely looks
 * like a prompt. Echo is turned off before every prompt: all input arrives through
 * runCommand (agent and terminal tab alike), and without echo the output holds only what
 * the command printed.
 */
function rcFile(nonce: string): string {
  return [
    '[ -f ~/.bashrc ] && . ~/.bashrc',
    `PS1='\\[\\e]${OSC};${nonce};A;$?;$PWD\\a\\]\\W\\$ \\[\\e]${OSC};${nonce};B\\a\\]'`,
    "PS2=''",
    "PROMPT_COMMAND='stty -echo 2>/dev/null'",
    // Past the file size limit a write fails with "File too large" rather than killing the shell (and what it runs).
    "trap '' XFSZ",
    'HISTCONTROL=ignorespace',
    '',
  ].join('\n');
}

interface Finished {
  raw: string;
  exitCode: number;
}

/**
 * One persistent bash in a pseudo-terminal. A command is written to a file and sourced
 * from a single typed line, so multi-line commands, heredocs and `cd` behave as typed,
 * and exactly one prompt follows each command. Calls are queued; a command that outlives
 * its timeout keeps running and later calls send it input, poll it or interrupt it.
 */
export class Shell {
  private term: IPty | null = null;
  private nonce = '';
  private state: 'stopped' | 'starting' | 'idle' | 'running' = 'stopped';
  /** Raw output of the running command not yet handed to a caller (its latest part, once the middle was dropped). */
  private buffer = '';
  /** The start of that output, kept when the middle had to be dropped. */
  private head = '';
  /** How many raw characters were dropped between `head` and `buffer`. */
  private dropped = 0;
  /** Readline's newline after the sourced line has not been skipped yet. */
  private awaitingAccept = false;
  private finished: Finished | null = null;
  private lastOutputAt = 0;
  private cwd: string;
  private wake: (() => void) | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private killed = false;
  private readonly listeners = new Set<(chunk: string) => void>();
  /** Variables the running bash gets before its next command (it started with the environment of then). */
  private exports: Record<string, string | null> = {};
  private readonly idleTimeoutMs: number;

  constructor(private readonly options: ShellOptions) {
    this.cwd = options.cwd;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  }

  private get commandFile(): string {
    return path.join(this.options.controlDir, 'command.sh');
  }

  private get promptMarker(): string {
    return `\x1b]${OSC};${this.nonce};A;`;
  }

  /** The first complete prompt at or after `from`: exit code and working directory. */
  private findPrompt(from: number): RegExpExecArray | null {
    const pattern = new RegExp(
      `\\x1b\\]${OSC};${this.nonce};A;(\\d+);([^\\x07]*)\\x07[\\s\\S]*?\\x1b\\]${OSC};${this.nonce};B\\x07`,
      'g',
    );
    pattern.lastIndex = Math.max(0, from);
    return pattern.exec(this.buffer);
  }

  onOutput(listener: (chunk: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts bash and waits for its first prompt. */
  async start(): Promise<void> {
    if (this.killed) throw new Error('The shell is stopped');
    this.nonce = randomBytes(8).toString('hex');
    // Started from `options.env`, which holds every update so far.
    this.exports = {};
    const rcPath = path.join(this.options.controlDir, 'bashrc');
    await mkdir(this.options.controlDir, { recursive: true });
    await writeFile(rcPath, rcFile(this.nonce));
    const [file, ...args] = this.options.wrap(['bash', '--noprofile', '--rcfile', rcPath, '-i']);
    if (!file) throw new Error('Empty shell command line');
    const term = nodePty().spawn(file, args, {
      name: 'xterm-256color',
      cols: 200,
      rows: 50,
      cwd: this.options.cwd,
      env: this.options.env,
    });
    this.term = term;
    this.state = 'starting';
    this.buffer = '';
    this.cwd = this.options.cwd;
    term.onData((chunk) => this.receive(term, chunk));
    term.onExit(({ exitCode }) => this.exited(term, exitCode));
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => check(true), START_TIMEOUT_MS);
      const check = (timedOut = false) => {
        if (this.state === 'starting' && !timedOut) return;
        clearTimeout(timer);
        this.wake = null;
        if (this.state === 'idle') resolve();
        else reject(new Error(`The shell did not start: ${terminalText(this.buffer).trim() || 'no output'}`));
      };
      this.wake = () => check();
    });
    try {
      await ready;
    } catch (error) {
      await killTree(term.pid);
      throw error;
    }
  }

  /** Sets `values` in the running bash before its next command (a new bash starts from `options.env`). */
  updateEnvironment(values: Record<string, string | null>): void {
    if (this.state !== 'stopped') Object.assign(this.exports, values);
  }

  run(input: RunCommandInput): Promise<CommandResult> {
    const result = this.queue.then(() => this.runNow(input));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Ctrl-C to the running command. At an idle prompt it would only print a new prompt, which could be taken for the end of the next command. */
  async interrupt(): Promise<void> {
    if (this.state === 'running') this.term?.write('\x03');
  }

  /** The shell's processes and everything they started. */
  processes(): number[] {
    return this.term ? processTree(this.term.pid) : [];
  }

  /** Kills bash and everything it started; the shell cannot be used again. */
  async kill(): Promise<void> {
    this.killed = true;
    const term = this.term;
    if (!term || this.state === 'stopped') return;
    const exited = new Promise<void>((resolve) => term.onExit(() => resolve()));
    await killTree(term.pid);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
  }

  private emit(chunk: string): void {
    for (const listener of this.listeners) listener(chunk);
  }

  private receive(term: IPty, chunk: string): void {
    if (term !== this.term) return;
    this.emit(chunk);
    this.lastOutputAt = Date.now();
    this.buffer += chunk;
    if (this.state === 'running' && this.awaitingAccept) this.skipAcceptedLine();
    // Only the end can hold a new prompt: rescanning everything on each chunk would be quadratic.
    const prompt = this.findPrompt(this.buffer.length - chunk.length - PROMPT_MAX);
    if (prompt) {
      if (this.state === 'running')
        this.finished = { raw: this.buffer.slice(0, prompt.index), exitCode: Number(prompt[1]) };
      this.cwd = prompt[2] ?? this.cwd;
      this.state = 'idle';
    }
    // Between commands nothing reads the buffer (background jobs may still print; the terminal tab saw it).
    if (this.state === 'idle') this.buffer = '';
    else if (this.state === 'running' && this.buffer.length > RAW_LIMIT) this.dropMiddle();
    this.wake?.();
  }

  private dropMiddle(): void {
    let from = 0;
    if (!this.head) {
      this.head = this.buffer.slice(0, RAW_KEEP);
      from = RAW_KEEP;
    }
    const keepFrom = this.buffer.length - RAW_KEEP;
    this.dropped += keepFrom - from;
    this.buffer = this.buffer.slice(keepFrom);
  }

  private skipAcceptedLine(): void {
    const newline = this.buffer.indexOf('\n');
    if (newline === -1) return;
    if (terminalText(this.buffer.slice(0, newline + 1)).trim() === '') this.buffer = this.buffer.slice(newline + 1);
    this.awaitingAccept = false;
  }

  private exited(term: IPty, exitCode: number): void {
    if (term !== this.term) return;
    if (this.state === 'running') {
      const note = this.killed ? '[The session stopped.]' : '[The shell exited; the next command starts a new one.]';
      this.finished = { raw: this.buffer ? `${this.buffer}\n${note}` : note, exitCode };
    }
    this.state = 'stopped';
    this.wake?.();
  }

  private async runNow(input: RunCommandInput): Promise<CommandResult> {
    if (this.killed) throw new Error('The shell is stopped');
    const command = input.command;
    const poll = !input.isInput && command.trim() === '';
    // A command that finished after its caller gave up waiting: the poll gets its end and exit code.
    if (poll && this.finished) return this.collect();
    if (this.state === 'stopped') await this.start();
    const term = this.term;
    if (!term) throw new Error('The shell is not running');
    if (input.isInput) {
      if (this.state !== 'running') throw new Error('No command is running to send input to.');
      const key = CONTROL_KEYS[command.trim()];
      // The terminal does not echo (see rcFile): listeners (the terminal tab) are shown the input instead.
      if (!key) this.emit(`${command.replace(/\r?\n/g, '\r\n')}\r\n`);
      term.write(key ?? `${command}\r`);
    } else if (poll) {
      if (this.state !== 'running') return { output: '', exitCode: 0, running: false, cwd: this.cwd };
    } else {
      if (this.state === 'running') {
        throw new Error(
          'A command is still running: send it input (isInput), poll it with an empty command, or interrupt it.',
        );
      }
      // On the command's own first line, so the line numbers bash reports stay the command's.
      const exported = Object.entries(this.exports).map(([name, value]) =>
        value === null ? `unset ${name}; ` : `export ${name}=${shellQuote(value)}; `,
      );
      this.exports = {};
      await writeFile(this.commandFile, exported.join('') + command);
      this.buffer = '';
      this.head = '';
      this.dropped = 0;
      this.awaitingAccept = true;
      this.finished = null;
      this.state = 'running';
      this.lastOutputAt = Date.now();
      // Listeners see the command after the prompt, as if typed; readline's newline follows.
      this.emit(command.replace(/\r?\n/g, '\r\n'));
      // A leading space keeps the line out of bash's history (HISTCONTROL=ignorespace).
      term.write(` . ${shellQuote(this.commandFile)}\r`);
    }
    const timeoutSeconds = Math.min(input.timeoutSeconds ?? DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S);
    await this.waitWhileRunning(
      timeoutSeconds * 1000,
      input.timeoutSeconds === undefined ? this.idleTimeoutMs : Infinity,
      input.signal,
    );
    return this.collect();
  }

  /** Resolves when the command finished, the timeout passed, or (idleMs) nothing was printed for that long. */
  private waitWhileRunning(timeoutMs: number, idleMs: number, signal: AbortSignal | undefined): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = (error?: unknown) => {
        clearTimeout(timer);
        this.wake = null;
        signal?.removeEventListener('abort', onAbort);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onAbort = () => done(signal?.reason ?? new Error('Aborted'));
      const check = () => {
        if (this.state !== 'running') return done();
        const until = Math.min(deadline, this.lastOutputAt + idleMs);
        const now = Date.now();
        if (now >= until) return done();
        clearTimeout(timer);
        timer = setTimeout(check, until - now);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.wake = check;
      check();
    });
  }

  private collect(): CommandResult {
    const finished = this.finished;
    this.finished = null;
    let raw: string;
    if (finished) {
      raw = finished.raw;
    } else {
      // Still running: hand over what arrived, keeping back an escape sequence cut in half
      // and a prompt whose second marker is still on its way (it must be matched whole).
      const marker = this.buffer.indexOf(this.promptMarker);
      const length = this.awaitingAccept ? 0 : Math.min(completeLength(this.buffer), marker === -1 ? Infinity : marker);
      raw = this.buffer.slice(0, length);
      this.buffer = this.buffer.slice(length);
    }
    const text = terminalText(this.head) + terminalText(raw);
    const output = capText(finished ? text.replace(/\n$/, '') : text, OUTPUT_LIMIT, this.dropped);
    this.head = '';
    this.dropped = 0;
    return finished
      ? { output, exitCode: finished.exitCode, running: false, cwd: this.cwd }
      : { output, exitCode: -1, running: true, cwd: this.cwd };
  }
}
