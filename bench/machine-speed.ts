import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import type { BenchResult } from './result.ts';
import { quantile, round } from './stats.ts';

/** A fixed piece of work: JSON out and in, a sort and gzip over the same generated records. */
function fixedWork(): void {
  const records = Array.from({ length: 100_000 }, (_, i) => ({
    id: i,
    text: `record ${(i * 7919) % 100_003}`,
    at: i * 13,
  }));
  const text = JSON.stringify(records);
  const parsed = JSON.parse(text) as typeof records;
  parsed.sort((a, b) => a.text.localeCompare(b.text));
  gzipSync(text);
}

/**
 * A fixed piece of the kernel's work: 20 processes started and waited for, and 128 MiB of new
 * memory touched (a page fault for every page). On some virtual machines this is slow while
 * plain JavaScript is not: it moves the rows that go through the kernel (sockets, processes,
 * Chromium's loads) and leaves the first anchor where it was.
 */
function fixedKernelWork(): void {
  for (let i = 0; i < 20; i++) spawnSync('true');
  const memory = new Uint8Array(128 * 2 ** 20);
  for (let page = 0; page < memory.length; page += 4096) memory[page] = 1;
}

function medianTime(work: () => void): number {
  work();
  const times = Array.from({ length: 7 }, () => {
    const started = performance.now();
    work();
    return performance.now() - started;
  });
  return quantile(times, 0.5);
}

/**
 * How fast this machine runs plain JavaScript now: every time in RESULTS.md scales with it, so
 * runs on different days (or machines) compare through it. Code that no change touches (the
 * landing page's paint, the agent's in-memory step) moves with it.
 */
export function benchMachineSpeed(): BenchResult[] {
  return [
    {
      name: 'machine speed: a fixed JavaScript workload (JSON, sort, gzip of 100,000 records), median of 7',
      metric: 'time',
      value: round(medianTime(fixedWork), 0),
      unit: 'ms',
    },
    {
      name: "machine speed: a fixed piece of the kernel's work (20 processes run, 128 MiB of new memory touched), median of 7",
      metric: 'time',
      value: round(medianTime(fixedKernelWork), 0),
      unit: 'ms',
    },
  ];
}
