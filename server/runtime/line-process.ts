import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * A child process that answers each request line with one line, in order: who asks waits for
 * the next answer. Every question after the process ended is answered null.
 */
export class LineProcess {
  private readonly waiting: ((line: string | null) => void)[] = [];
  private ended = false;

  constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) =>
      this.waiting.shift()?.(line),
    );
    const end = () => {
      this.ended = true;
      for (const answer of this.waiting.splice(0)) answer(null);
    };
    child.on('exit', end);
    child.on('error', end);
    child.stdin?.on('error', () => undefined);
  }

  get running(): boolean {
    return !this.ended;
  }

  ask(request: string): Promise<string | null> {
    const answer = this.read();
    if (!this.ended) this.child.stdin?.write(`${request}\n`);
    return answer;
  }

  /** The next line, unasked (a greeting). */
  read(): Promise<string | null> {
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}
