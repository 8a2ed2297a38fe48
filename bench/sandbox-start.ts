import { execFile } from 'node:child_process';
import { tempRuntime } from '../tests/support/temp-runtime.ts';
import type { BenchResult } from './result.ts';
import { quantile, round } from './stats.ts';

const RUNS = 50;
const STARTS = 5;

function timed(argv: string[], env: Record<string, string>): Promise<number> {
  const [file = '', ...args] = argv;
  const started = performance.now();
  return new Promise((resolve, reject) =>
    execFile(file, args, { env }, (error) => (error ? reject(error) : resolve(performance.now() - started))),
  );
}

/**
 * What the sandbox costs: a process started in a conversation's sandbox (`true`, through the
 * launcher, its control groups, rlimits, the network namespace, bwrap, seccomp and setpriv, as
 * every git call and the shell start), beside the same `true` started bare; and a conversation's
 * runtime start (directories, network namespace, control groups, git, the shell's first prompt).
 */
export async function benchSandboxStart(): Promise<BenchResult[]> {
  const temp = await tempRuntime();
  const sandboxed: number[] = [];
  const bare: number[] = [];
  const starts: number[] = [];
  const confined = await temp.runtime.isSandboxed();
  try {
    const session = await temp.runtime.start('bench-sandbox');
    const wrapped = session.sandboxedProcess(['true']);
    for (let run = 0; run < RUNS; run++) {
      if (wrapped) sandboxed.push(await timed(wrapped.argv, wrapped.env));
      bare.push(await timed(['true'], {}));
    }
    for (let start = 0; start < STARTS; start++) {
      const began = performance.now();
      const fresh = await temp.runtime.start(`bench-start-${start}`);
      starts.push(performance.now() - began);
      await fresh.stop();
    }
  } finally {
    await temp.cleanup();
  }
  const name = `sandbox start (${confined ? 'sandboxed' : 'no sandbox here'})`;
  return [
    {
      name,
      metric: `a process in the sandbox, median of ${RUNS}`,
      value: round(quantile(sandboxed, 0.5), 1),
      unit: 'ms',
    },
    {
      name,
      metric: `a process in the sandbox, p95 of ${RUNS}`,
      value: round(quantile(sandboxed, 0.95), 1),
      unit: 'ms',
    },
    {
      name,
      metric: `the same process started bare, median of ${RUNS}`,
      value: round(quantile(bare, 0.5), 1),
      unit: 'ms',
    },
    {
      name,
      metric: `a conversation's runtime start, median of ${STARTS}`,
      value: round(quantile(starts, 0.5), 0),
      unit: 'ms',
    },
  ];
}
