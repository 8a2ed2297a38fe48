import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { scriptModule } from '../shared/script-module.ts';
import { DIRECTORY_WATCHER_ENV } from './directory-watcher.ts';
import { LineProcess } from './line-process.ts';
import type { WorkspaceSnapshot } from './types.ts';

/** What the snapshot process answers: a snapshot, or that git itself must take it. */
export type WorkerAnswer = WorkspaceSnapshot | { unsupported: string };

/** An idle snapshot process ends after this long; the next snapshot starts another (its first walk reads every file). */
const IDLE_MS = 5 * 60_000;
/**
 * A snapshot process that has not answered by then is ended (the step goes on without its
 * snapshot): a workspace at its process or memory limit can leave it waiting for a thread.
 */
const ANSWER_TIMEOUT_MS = 60_000;
/** A snapshot process that has not said it runs by then is ended (Node waits forever for a thread it could not start). */
const START_TIMEOUT_MS = 10_000;
const WORKER = path.join(import.meta.dirname, 'snapshot-worker.ts');
const DIRECTORY_WATCHER = path.join(import.meta.dirname, 'directory-watcher.py');

let workerCode: Promise<string> | null = null;
/** The worker as one JavaScript module, built once per server process (~60 ms). */
function bundledWorker(): Promise<string> {
  workerCode ??= scriptModule(WORKER, 'bundle');
  return workerCode;
}

/** The line `answer` brings, or null with the process ended when it takes longer than `ms`. */
async function within(running: LineProcess, answer: Promise<string | null>, ms: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      running.kill();
      resolve(null);
    }, ms).unref();
  });
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Talks to a workspace's snapshot process (snapshot-worker.ts), started on first use through
 * `wrap` (the sandbox): one request at a time, in order.
 */
export class SnapshotClient {
  private process: LineProcess | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private idle: NodeJS.Timeout | null = null;

  constructor(
    private readonly options: {
      workspaceDir: string;
      env: Record<string, string>;
      wrap: (argv: string[]) => string[];
      startTimeoutMs?: number;
    },
  ) {}

  snapshot(name: string, previous: string | null): Promise<WorkerAnswer> {
    const request = this.queue.then(() => this.ask(JSON.stringify({ name, previous })));
    this.queue = request.catch(() => undefined);
    return request;
  }

  /** Ends the process (the session stops). */
  close(): void {
    if (this.idle) clearTimeout(this.idle);
    this.process?.kill();
    this.process = null;
  }

  /** Starts the process ahead of the first snapshot, while the workspace is far from its limits. */
  warm(): void {
    this.queue = this.queue
      .then(() => this.running())
      .then(() => this.idleFromNow())
      .catch(() => undefined);
  }

  private async ask(request: string): Promise<WorkerAnswer> {
    const running = await this.running();
    const line = await within(running, running.ask(request), ANSWER_TIMEOUT_MS);
    this.idleFromNow();
    if (line === null) throw new Error('The snapshot process ended');
    const answer = JSON.parse(line) as WorkerAnswer | { error: string };
    if ('error' in answer) throw new Error(answer.error);
    return answer;
  }

  private async running(): Promise<LineProcess> {
    if (this.idle) clearTimeout(this.idle);
    if (this.process?.running) return this.process;
    const started = this.start(await bundledWorker());
    this.process = started;
    if ((await within(started, started.read(), this.options.startTimeoutMs ?? START_TIMEOUT_MS)) !== 'ready') {
      this.close();
      throw new Error('The snapshot process did not start');
    }
    return started;
  }

  private idleFromNow(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.close(), IDLE_MS).unref();
  }

  private start(code: string): LineProcess {
    const [file, ...args] = this.options.wrap([process.execPath, '--input-type=module', '--eval', code]);
    const child = spawn(file as string, args, {
      cwd: this.options.workspaceDir,
      env: { ...this.options.env, [DIRECTORY_WATCHER_ENV]: readFileSync(DIRECTORY_WATCHER, 'utf8') },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    return new LineProcess(child);
  }
}
