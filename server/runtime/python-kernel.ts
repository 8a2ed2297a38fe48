import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type * as Zeromq from 'zeromq';
import type { Dealer, Subscriber } from 'zeromq';
import { lazyPackage } from '../shared/lazy-package.ts';
import type { Owner } from './beneath.ts';
import { freePort } from './ports.ts';
import { killTree } from './processes.ts';
import { capText, terminalText } from './terminal-text.ts';
import type { PythonResult } from './types.ts';

export interface KernelOptions {
  /** The interpreter that has ipykernel (Debian's /usr/bin/python3 here). */
  python: string;
  workspaceDir: string;
  /**
   * Where the connection file goes: a directory the kernel can write (it writes the file again
   * at its start) and where the sandbox cannot foresee the name the server makes: the
   * conversation's /tmp, the server's and sticky. `kernelDir` is where the kernel sees it.
   */
  connectionDir: { host: string; kernel: string };
  /** The sandbox's user, who gets the file. */
  owner: Owner | null;
  env: Record<string, string>;
  wrap: (argv: string[]) => string[];
  /** Fixed channel ports (a kernel in its own network namespace is reached through ports forwarded once); default: free ones at each start. */
  ports?: KernelPorts;
}

export interface KernelPorts {
  shell: number;
  iopub: number;
  stdin: number;
  control: number;
  hb: number;
}

/**
 * Five distinct ports free on the host's loopback now, none of them in `taken` (the sandbox's
 * other forwarded ports: pasta refuses a port named twice). Each probe releases its port before
 * the next, so the system may hand the same one out again: repeats are drawn anew.
 */
export async function freeKernelPorts(taken: readonly number[] = []): Promise<KernelPorts> {
  const chosen = new Set<number>();
  for (let attempt = 0; chosen.size < 5; attempt++) {
    if (attempt > 100) throw new Error('no five distinct free ports for the Python kernel');
    const port = await freePort();
    if (!taken.includes(port)) chosen.add(port);
  }
  const [shell = 0, iopub = 0, stdin = 0, control = 0, hb = 0] = chosen;
  return { shell, iopub, stdin, control, hb };
}

/** The channels the server connects to; stdin and heartbeat stay unused. */
export function connectedKernelPorts(ports: KernelPorts): number[] {
  return [ports.shell, ports.iopub, ports.control];
}

interface Message {
  header: { msg_id: string; msg_type: string };
  parent_header: { msg_id?: string };
  content: Record<string, unknown>;
}

const zeromq = lazyPackage<typeof Zeromq>('zeromq');
const DELIMITER = '<IDS|MSG>';
const PROTOCOL_VERSION = '5.3';
const START_TIMEOUT_MS = 30_000;
const OUTPUT_LIMIT = 30_000;
/** A message type of our own, handed to waiting listeners when the kernel goes away. */
const EXITED = 'atelier:kernel-exited';

/**
 * A Jupyter kernel (ipykernel) spoken to over ZeroMQ with the Jupyter messaging protocol:
 * requests on the shell and control channels, output from iopub, every message signed
 * with HMAC-SHA256 over the key in the connection file. Started on first use; a kernel
 * that dies is started again on the next cell (its variables are lost).
 */
export class PythonKernel {
  private child: ChildProcess | null = null;
  private shell: Dealer | null = null;
  private control: Dealer | null = null;
  private iopub: Subscriber | null = null;
  private key = Buffer.alloc(0);
  private readonly session = randomUUID();
  /** iopub listeners by the id of the request that caused the output. */
  private readonly listeners = new Map<string, (message: Message) => void>();
  private starting: Promise<void> | null = null;
  private log = '';
  private stopped = false;
  /** Variables the running kernel gets before its next cell (it started with the environment of then). */
  private environmentUpdate: Record<string, string | null> = {};

  constructor(private readonly options: KernelOptions) {}

  /** Runs a cell. Past the timeout the kernel is interrupted (KeyboardInterrupt) and the output so far is returned with a note. */
  async execute(code: string, timeoutMs: number): Promise<PythonResult> {
    await this.ensureStarted();
    const shell = this.shell;
    if (!shell) throw new Error('The Python kernel is not running');
    const update = Object.entries(this.environmentUpdate);
    if (update.length > 0) {
      this.environmentUpdate = {};
      // Silent and out of the history; the kernel runs it before the cell sent after it. JSON
      // objects of strings and arrays of strings are Python literals.
      const set = JSON.stringify(Object.fromEntries(update.filter(([, value]) => value !== null)));
      const unset = JSON.stringify(update.filter(([, value]) => value === null).map(([name]) => name));
      this.send(shell, 'execute_request', {
        // No name of the user's is bound or replaced (a comprehension's variable stays inside it).
        code: `__import__('os').environ.update(${set}); [__import__('os').environ.pop(n, None) for n in ${unset}]`,
        silent: true,
        store_history: false,
        user_expressions: {},
        allow_stdin: false,
        stop_on_error: false,
      });
    }
    let output = '';
    const images: string[] = [];
    // stop_on_error would make the kernel abort cells sent just after a failing one; each call here stands alone.
    const id = this.send(shell, 'execute_request', {
      code,
      silent: false,
      store_history: true,
      user_expressions: {},
      allow_stdin: false,
      stop_on_error: false,
    });
    // Registered in the same tick as the send: iopub answers arrive on a later one.
    const finished = new Promise<string | null>((resolve) => {
      this.listeners.set(id, (message) => {
        const content = message.content;
        switch (message.header.msg_type) {
          case 'stream':
            output += String(content.text ?? '');
            break;
          case 'execute_result':
          case 'display_data': {
            const data = (content.data ?? {}) as Record<string, unknown>;
            const png = data['image/png'];
            if (typeof png === 'string') images.push(`data:image/png;base64,${png.replace(/\s/g, '')}`);
            else if (typeof data['text/plain'] === 'string') output += `${data['text/plain']}\n`;
            break;
          }
          case 'error':
            output += `${terminalText(((content.traceback ?? []) as string[]).join('\n'))}\n`;
            break;
          case 'status':
            if (content.execution_state === 'idle') resolve(null);
            break;
          case EXITED:
            resolve('[The Python kernel exited; the next cell starts a new one and earlier variables are lost.]');
            break;
        }
      });
    });
    const seconds = Math.round(timeoutMs / 1000);
    let note = await withTimeout(finished, timeoutMs);
    if (note === undefined) {
      this.interrupt();
      const afterInterrupt = await withTimeout(finished, 5000);
      if (afterInterrupt === undefined) {
        await this.shutdown();
        note = `[Stopped after ${seconds} s: the kernel did not answer the interrupt and was restarted; earlier variables are lost.]`;
      } else {
        note = afterInterrupt ?? `[Stopped after ${seconds} s: the cell was interrupted.]`;
      }
    }
    this.listeners.delete(id);
    if (note) output += `${output && !output.endsWith('\n') ? '\n' : ''}${note}`;
    return { output: capText(output.replace(/\n$/, ''), OUTPUT_LIMIT), images };
  }

  /** Sets `values` in the running kernel before its next cell (a new kernel starts from `options.env`). */
  updateEnvironment(values: Record<string, string | null>): void {
    if (this.child) Object.assign(this.environmentUpdate, values);
  }

  /** ipykernel answers interrupt_request by raising KeyboardInterrupt in the cell; a signal could not reach it through bwrap. */
  private interrupt(): void {
    if (this.control) this.send(this.control, 'interrupt_request', {});
  }

  /** Stops the kernel for good (the session is stopping). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.shutdown();
  }

  /** Kills the kernel process (and anything it started) and closes the sockets; the next cell starts a new kernel. */
  private async shutdown(): Promise<void> {
    const child = this.child;
    this.forget();
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await killTree(child.pid);
      await withTimeout(exited, 3000);
    }
  }

  /** Drops the kernel's process and sockets and tells every waiting cell it is gone. */
  private forget(): void {
    this.child = null;
    this.starting = null;
    for (const socket of [this.shell, this.control, this.iopub]) socket?.close();
    this.shell = this.control = this.iopub = null;
    const exited: Message = { header: { msg_id: '', msg_type: EXITED }, parent_header: {}, content: {} };
    for (const listener of [...this.listeners.values()]) listener(exited);
    this.listeners.clear();
  }

  private ensureStarted(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('The session is stopped'));
    if (!this.starting) {
      this.starting = this.start().catch(async (error: unknown) => {
        await this.shutdown();
        throw error;
      });
    }
    return this.starting;
  }

  private async start(): Promise<void> {
    const ports = this.options.ports ?? (await freeKernelPorts());
    // Jupyter signs with the key's text as written in the connection file, not the bytes it spells.
    const key = randomBytes(32).toString('hex');
    this.key = Buffer.from(key, 'utf8');
    const name = `.kernel-${randomUUID()}.json`;
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
    const connection = await open(
      path.join(this.options.connectionDir.host, name),
      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
      0o600,
    );
    try {
      if (this.options.owner) await connection.chown(this.options.owner.uid, this.options.owner.gid);
      await connection.writeFile(
        JSON.stringify({
          transport: 'tcp',
          ip: '127.0.0.1',
          shell_port: ports.shell,
          iopub_port: ports.iopub,
          stdin_port: ports.stdin,
          control_port: ports.control,
          hb_port: ports.hb,
          key,
          signature_scheme: 'hmac-sha256',
          kernel_name: 'python3',
        }),
      );
    } finally {
      await connection.close();
    }
    const connectionFile = path.join(this.options.connectionDir.kernel, name);
    const [file, ...args] = this.options.wrap([this.options.python, '-m', 'ipykernel_launcher', '-f', connectionFile]);
    if (!file) throw new Error('Empty kernel command line');
    this.log = '';
    // Started from `options.env`, which holds every update so far.
    this.environmentUpdate = {};
    // Its own session, so stop() can find and kill whatever the cells started.
    const child = spawn(file, args, {
      cwd: this.options.workspaceDir,
      env: this.options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keepLog = (chunk: Buffer) => (this.log = (this.log + chunk.toString('utf8')).slice(-4000));
    child.stdout?.on('data', keepLog);
    child.stderr?.on('data', keepLog);
    child.once('exit', () => {
      if (this.child === child) this.forget();
    });

    const endpoint = (port: number) => `tcp://127.0.0.1:${port}`;
    const { Dealer, Subscriber } = zeromq();
    this.shell = new Dealer({ linger: 0 });
    this.control = new Dealer({ linger: 0 });
    this.iopub = new Subscriber({ linger: 0 });
    this.shell.connect(endpoint(ports.shell));
    this.control.connect(endpoint(ports.control));
    this.iopub.connect(endpoint(ports.iopub));
    this.iopub.subscribe();
    void this.readIopub(this.iopub);
    // Replies on shell and control are not needed (iopub carries the output and the idle
    // status); read them anyway so they do not pile up in the sockets.
    void this.drain(this.shell);
    void this.drain(this.control);
    await this.waitUntilReady(child);
  }

  /**
   * A kernel is ready once a kernel_info request gets its status on iopub: the reply on
   * shell alone would not prove the subscription is live, and output sent before that is lost.
   */
  private async waitUntilReady(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (this.child !== child || !this.shell)
        throw new Error(`The Python kernel exited while starting: ${this.log.trim() || 'no output'}`);
      const answered = new Promise<boolean>((resolve) => {
        const id = this.send(this.shell as Dealer, 'kernel_info_request', {});
        this.listeners.set(id, (message) => {
          this.listeners.delete(id);
          resolve(message.header.msg_type !== EXITED);
        });
        setTimeout(() => {
          this.listeners.delete(id);
          resolve(false);
        }, 500);
      });
      if (await answered) return;
    }
    throw new Error(
      `The Python kernel did not start within ${START_TIMEOUT_MS / 1000} s: ${this.log.trim() || 'no output'}`,
    );
  }

  private async drain(socket: Dealer): Promise<void> {
    try {
      for await (const _reply of socket);
    } catch {
      // The socket was closed.
    }
  }

  private async readIopub(socket: Subscriber): Promise<void> {
    try {
      for await (const frames of socket) {
        const message = this.decode(frames);
        const parent = message?.parent_header.msg_id;
        if (message && parent) this.listeners.get(parent)?.(message);
      }
    } catch {
      // The socket was closed by stop() or the exit handler.
    }
  }

  private sign(parts: readonly (string | Buffer)[]): string {
    const hmac = createHmac('sha256', this.key);
    for (const part of parts) hmac.update(part);
    return hmac.digest('hex');
  }

  private send(socket: Dealer, type: string, content: Record<string, unknown>): string {
    const id = randomUUID();
    const header = JSON.stringify({
      msg_id: id,
      msg_type: type,
      session: this.session,
      username: 'atelier',
      date: new Date().toISOString(),
      version: PROTOCOL_VERSION,
    });
    const parts = [header, '{}', '{}', JSON.stringify(content)];
    void socket.send([DELIMITER, this.sign(parts), ...parts]).catch(() => undefined);
    return id;
  }

  /** Parses a wire message; null when its signature is wrong (someone else on the port) or it is malformed. */
  private decode(frames: Buffer[]): Message | null {
    const at = frames.findIndex((frame) => frame.toString('utf8') === DELIMITER);
    const [signature, header, parent, metadata, content] = frames.slice(at + 1);
    if (at === -1 || !signature || !header || !parent || !metadata || !content) return null;
    const expected = Buffer.from(this.sign([header, parent, metadata, content]));
    if (expected.length !== signature.length || !timingSafeEqual(expected, signature)) return null;
    try {
      return {
        header: JSON.parse(header.toString('utf8')),
        parent_header: JSON.parse(parent.toString('utf8')),
        content: JSON.parse(content.toString('utf8')),
      };
    } catch {
      return null;
    }
  }
}

/** The promise's value, or undefined when it takes longer than `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
