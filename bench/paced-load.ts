import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { pinning, pinProcess } from './cpu-pinning.ts';
import { quantile, round } from './stats.ts';

export interface PacedLoadResult {
  /** Answers per second over the run, from the first request scheduled to the last answer. */
  rate: number;
  p50: number;
  p99: number;
  failures: number;
}

/**
 * GETs `url` at a fixed rate over at most `connections` keep-alive connections: request i is
 * due at start + i / rate and its latency counts from then, so time spent waiting for a free
 * connection is counted too (no coordinated omission). autocannon's `overallRate` is not used
 * because it sends each connection's quota for the second back to back, a burst every second.
 */
export interface PacedLoadOptions {
  url: string;
  headers?: Record<string, string>;
  rate: number;
  seconds: number;
  connections: number;
}

export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const { rate, seconds } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let failures = 0;
  let sent = 0;
  const start = performance.now();
  const interval = 1000 / rate;

  const request = (due: number) =>
    new Promise<void>((resolve) => {
      const req = http.get(options.url, { agent, headers: options.headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) failures++;
          latencies.push(performance.now() - due);
          resolve();
        });
      });
      req.on('error', () => {
        failures++;
        resolve();
      });
    });

  const pending: Promise<void>[] = [];
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) pending.push(request(start + sent++ * interval));
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
      else done();
    };
    tick();
  });
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  return {
    rate: round(total / elapsed, 0),
    p50: round(quantile(latencies, 0.5), 2),
    p99: round(quantile(latencies, 0.99), 2),
    failures,
  };
}

/**
 * pacedLoad in a fresh process of its own, on the load generator's CPUs: a pause of the harness
 * (a full garbage collection of the heap the earlier benchmarks left) would otherwise count as
 * the server's latency.
 */
export function pacedLoadInChild(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  pinProcess(child.pid, pinning?.load);
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output) as PacedLoadResult) : reject(new Error(`load generator exited ${code}`)),
    ),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await pacedLoad(JSON.parse(process.argv[2] ?? '{}') as PacedLoadOptions);
  process.stdout.write(JSON.stringify(result));
}
