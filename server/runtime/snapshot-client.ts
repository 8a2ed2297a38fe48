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
const WORKER = path.join(import.meta.dirname, 'snapshot-worker.ts');
const DIRECTORY_WATCHER = path.join(import.meta.dirname, 'directory-watcher.py');

let workerCode: Promise<string> | null = null;
/** The worker as one JavaScript module, built once per server process (~60 ms). */
function bundledWorker(): Promise<string> {
  workerCode ??= scriptModule(WORKER, 'bundle');
  return workerCode;
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

  private async ask(request: string): Promise<WorkerAnswer> {
    if (this.idle) clearTimeout(this.idle);
    if (!this.process?.running) this.process = this.start(await bundledWorker());
    const running = this.process;
    let timer: NodeJS.Timeout | undefined;
    const line = await Promise.race([
      running.ask(request),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => {
          running.kill();
          resolve(null);
        }, ANSWER_TIMEOUT_MS).unref();
      }),
    ]).finally(() => clearTimeout(timer));
    this.idle = setTimeout(() => this.close(), IDLE_MS).unref();
    if (line === null) throw new Error('The snapshot process ended');
    const answer = JSON.parse(line) as WorkerAnswer | { error: string };
    if ('error' in answer) throw new Error(answer.error);
    return answer;
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
