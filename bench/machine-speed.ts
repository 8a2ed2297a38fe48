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
 * How fast this machine runs plain JavaScript now: every time in RESULTS.md scales with it, so
 * runs on different days (or machines) compare through it. Code that no change touches (the
 * landing page's paint, the agent's in-memory step) moves with it.
 */
export function benchMachineSpeed(): BenchResult[] {
  fixedWork();
  const times = Array.from({ length: 7 }, () => {
    const started = performance.now();
    fixedWork();
    return performance.now() - started;
  });
  return [
    {
      name: 'machine speed: a fixed JavaScript workload (JSON, sort, gzip of 100,000 records), median of 7',
      metric: 'time',
      value: round(quantile(times, 0.5), 0),
      unit: 'ms',
    },
  ];
}
