import { waitFor } from '../tests/support/conversations.ts';
import { startServer } from '../tests/support/server.ts';
import { tempRuntime } from '../tests/support/temp-runtime.ts';
import type { BenchResult } from './result.ts';
import { quantile, round } from './stats.ts';

const FILES = 1_000;
const STEPS = 30;
const HISTORY = 10_000;
const FORKS = 5;
/** The pause between two steps' snapshots, shorter than any model's answer: the snapshot process prepares for the next one in between. */
const BETWEEN_STEPS_MS = 20;

/** Writes FILES small files in 50 directories, as one command in the workspace's shell. */
const MAKE_FILES = `for d in $(seq 1 50); do mkdir -p src/d$d; for f in $(seq 1 ${FILES / 50}); do echo "file $d/$f" > src/d$d/f$f.txt; done; done`;

/**
 * What forks cost: a snapshot after a step that changed one file of a 1,000-file workspace (the
 * runtime as the server runs it, sandboxed where bubblewrap is), and a fork of a 10,000-event
 * conversation whose workspace holds those files, through the server process (the call's answer:
 * events copied, repository copied, files checked out, the fork starting).
 */
export async function benchFork(): Promise<BenchResult[]> {
  const temp = await tempRuntime();
  const snapshotCosts: number[] = [];
  const sandboxed = await temp.runtime.isSandboxed();
  try {
    const session = await temp.runtime.start('bench-snapshots');
    await session.runCommand({ command: MAKE_FILES, timeoutSeconds: 120 });
    await session.snapshot('0');
    for (let step = 1; step <= STEPS; step++) {
      await new Promise((resolve) => setTimeout(resolve, BETWEEN_STEPS_MS));
      await session.writeFile(`src/d1/f${step}.txt`, `changed at step ${step}\n`);
      const started = performance.now();
      await session.snapshot(String(step));
      snapshotCosts.push(performance.now() - started);
    }
  } finally {
    await temp.cleanup();
  }

  const server = await startServer({ mode: 'oss' });
  const forkTimes: number[] = [];
  try {
    // One step makes the files; the rest of the history is messages.
    const at = '2026-01-01T00:00:00Z';
    const trajectory = [
      { id: 0, timestamp: at, source: 'agent', action: 'run', args: { command: MAKE_FILES, timeout: 120 } },
      ...Array.from({ length: HISTORY - 1 }, (_, i) => ({
        id: i + 1,
        timestamp: at,
        source: i % 2 ? 'agent' : 'user',
        action: 'message',
        args: { content: `history message ${i}: ${'words '.repeat(i % 40)}` },
      })),
    ];
    const created = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ replay_json: JSON.stringify(trajectory) }),
    });
    const { conversation_id: id } = (await created.json()) as { conversation_id: string };
    const running = await waitFor(
      async () => (await (await fetch(`${server.url}/api/conversations/${id}`)).json()) as { status: string },
      (c) => c.status === 'RUNNING',
      300_000,
      'the replay',
    );
    if (running.status !== 'RUNNING') throw new Error('the replayed conversation did not start');
    const page = (await (await fetch(`${server.url}/api/conversations/${id}/events?limit=1`)).json()) as {
      events: { id: number }[];
    };
    const last = page.events[0]?.id ?? 0;
    for (let n = 0; n < FORKS; n++) {
      const started = performance.now();
      const forked = await fetch(`${server.url}/api/conversations/${id}/fork`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event_id: last }),
      });
      forkTimes.push(performance.now() - started);
      if (forked.status !== 200) throw new Error(`fork answered ${forked.status}: ${await forked.text()}`);
      const { conversation_id: forkId } = (await forked.json()) as { conversation_id: string };
      // At most a few run at once: each fork is stopped once it has started.
      await waitFor(
        async () => (await (await fetch(`${server.url}/api/conversations/${forkId}`)).json()) as { status: string },
        (c) => c.status !== 'STARTING',
        60_000,
        'the fork to start',
      );
      await fetch(`${server.url}/api/conversations/${forkId}/stop`, { method: 'POST' });
    }
  } finally {
    await server.destroy();
  }

  const snapshots = `workspace snapshot after a step that changed 1 of ${FILES.toLocaleString('en')} files (${sandboxed ? 'sandboxed' : 'no sandbox'}), ${STEPS} steps`;
  const forks = `fork of a ${HISTORY.toLocaleString('en')}-event conversation with ${FILES.toLocaleString('en')} files (server process, PGlite), ${FORKS} forks`;
  return [
    {
      name: snapshots,
      metric: 'time per step, median',
      value: round(quantile(snapshotCosts, 0.5)),
      unit: 'ms',
      target: '≤ 5 ms',
    },
    { name: snapshots, metric: 'time per step, p95', value: round(quantile(snapshotCosts, 0.95)), unit: 'ms' },
    {
      name: forks,
      metric: 'POST /fork answered, median',
      value: Math.round(quantile(forkTimes, 0.5)),
      unit: 'ms',
      target: '≤ 1000 ms',
    },
    { name: forks, metric: 'POST /fork answered, slowest', value: Math.round(Math.max(...forkTimes)), unit: 'ms' },
  ];
}
