import { fork } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { waitFor } from '../tests/support/conversations.ts';
import { startServer } from '../tests/support/server.ts';
import type { BenchResult } from './result.ts';
import { quantile, round } from './stats.ts';

const SOCKETS = 1000;
const COMMANDS = 20;
/**
 * Commands run before measuring: the last sockets' connection work and the first sends' compilation
 * are not fan-out. The server's 1,000 sends for an event take 25–30 ms for the first commands and
 * settle at 7–8 ms by the eighth.
 */
const WARMUP_COMMANDS = 10;

/** Runs of the whole measurement, each with its own server: the budget asks for the p99 to hold in every one. */
const RUNS = 5;

/**
 * One conversation watched by 1,000 sockets: each terminal command produces two events,
 * persisted then fanned out by the server process. Latency is a socket's arrival time minus
 * the event's own timestamp (when the server stored it; same machine clock, millisecond grain),
 * over the events after a warm-up. The sockets are held by a process of their own
 * (fanout-clients-process.ts). Measured RUNS times; the p99 must hold in each.
 */
export async function benchEventFanout(): Promise<BenchResult[]> {
  const runs: number[][] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await deliveryLatencies());
  const p50s = runs.map((latencies) => quantile(latencies, 0.5));
  const p99s = runs.map((latencies) => quantile(latencies, 0.99));
  const name = `one event to ${SOCKETS} sockets, ${COMMANDS * 2} events after ${WARMUP_COMMANDS * 2} to warm up (separate server process, PGlite), ${RUNS} runs`;
  const each = p99s.map((p99) => round(p99)).join(', ');
  return [
    { name, metric: 'delivery latency p50, median of the runs', value: round(quantile(p50s, 0.5)), unit: 'ms' },
    {
      name,
      metric: `delivery latency p99, the worst run (each run: ${each} ms)`,
      value: round(Math.max(...p99s)),
      unit: 'ms',
      target: '≤ 25 ms',
    },
    {
      name,
      metric: 'deliveries measured per run',
      value: Math.min(...runs.map((latencies) => latencies.length)),
      unit: 'frames',
      target: `${SOCKETS * COMMANDS * 2}`,
    },
  ];
}

/** One run: every measured delivery's latency in ms. */
async function deliveryLatencies(): Promise<number[]> {
  // One user's 1,000 sockets from one address: past the limits a hosted server sets per user and address.
  const limits = {
    SOCKETS_PER_USER: String(SOCKETS),
    SOCKETS_PER_ADDRESS: String(SOCKETS),
    CONNECTIONS_PER_ADDRESS: String(SOCKETS + 100),
  };
  const server = await startServer({ mode: 'oss', env: limits });
  try {
    const created = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const { conversation_id: id } = (await created.json()) as { conversation_id: string };
    await waitFor(
      async () => (await (await fetch(`${server.url}/api/conversations/${id}`)).json()) as { status: string },
      (c) => c.status === 'RUNNING',
      30_000,
      'the conversation to run',
    );
    const history = async () =>
      (
        (await (await fetch(`${server.url}/api/conversations/${id}/trajectory`)).json()) as {
          trajectory: { id: number }[];
        }
      ).trajectory;
    const before = await history();
    // Resume after the last event: the sockets receive only what the commands produce.
    const latest = before.at(-1)?.id ?? -1;
    const clients = fork(
      path.join(import.meta.dirname, 'fanout-clients-process.ts'),
      [server.url, id, latest, SOCKETS, WARMUP_COMMANDS, COMMANDS].map(String),
      { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    const exited = once(clients, 'exit');
    const [latencies] = (await Promise.race([
      once(clients, 'message'),
      exited.then(([code]) => Promise.reject(new Error(`the clients' process ended (${String(code)})`))),
    ])) as [number[]];
    await exited;
    if ((await history()).length - before.length !== (WARMUP_COMMANDS + COMMANDS) * 2)
      throw new Error('unexpected events in the conversation');
    return latencies;
  } finally {
    await server.destroy();
  }
}
