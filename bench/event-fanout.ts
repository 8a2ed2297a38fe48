import { SocketClient, waitFor } from '../tests/support/conversations.ts';
import { startServer } from '../tests/support/server.ts';
import type { BenchResult } from './result.ts';
import { quantile, round } from './stats.ts';

const SOCKETS = 1000;
const COMMANDS = 20;
/** Commands run before measuring: the last sockets' connection work and the first sends' compilation are not fan-out. */
const WARMUP_COMMANDS = 5;

/**
 * One conversation watched by 1,000 sockets: each terminal command produces two events,
 * persisted then fanned out by the server process. Latency is a socket's arrival time minus
 * the event's own timestamp (when the server stored it; same machine clock, millisecond grain),
 * over the events after a warm-up.
 */
export async function benchEventFanout(): Promise<BenchResult[]> {
  const server = await startServer({ mode: 'oss' });
  const sockets: SocketClient[] = [];
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
    for (let i = 0; i < SOCKETS; i++)
      sockets.push(await SocketClient.open(server.url, { conversation_id: id, latest_event_id: latest }));
    const driver = sockets[0] as SocketClient;
    const arrivalsOffset = performance.timeOrigin;
    for (let n = 0; n < WARMUP_COMMANDS + COMMANDS; n++) {
      driver.send({ action: 'run', args: { command: `true ${n}`, hidden: true } });
      await driver.waitFor(
        (s) => s.events.filter((e) => e.observation === 'run').length === n + 1,
        'the command',
        30_000,
      );
    }
    const warmupEnd = driver.events[WARMUP_COMMANDS * 2 - 1]?.id ?? latest;
    const expected = COMMANDS * 2;
    // Count arrivals without parsing: parsing a socket's frames while others still receive would stamp their arrivals late.
    const total = WARMUP_COMMANDS * 2 + expected;
    await waitFor(
      () => sockets.every((s) => s.arrivals.length >= total),
      (all) => all,
      30_000,
      'every event on every socket',
    );
    const latencies: number[] = [];
    for (const s of sockets)
      s.frames.forEach((frame, i) => {
        if (frame.type === 'oh_event' && frame.data && frame.data.id > warmupEnd)
          latencies.push(arrivalsOffset + (s.arrivals[i] ?? 0) - Date.parse(frame.data.timestamp));
      });
    if ((await history()).length - before.length !== WARMUP_COMMANDS * 2 + expected)
      throw new Error('unexpected events in the conversation');
    const name = `one event to ${SOCKETS} sockets, ${expected} events after ${WARMUP_COMMANDS * 2} to warm up (separate server process, PGlite)`;
    return [
      { name, metric: 'delivery latency p50', value: round(quantile(latencies, 0.5)), unit: 'ms' },
      { name, metric: 'delivery latency p99', value: round(quantile(latencies, 0.99)), unit: 'ms', target: '≤ 25 ms' },
      { name, metric: 'deliveries measured', value: latencies.length, unit: 'frames', target: `${SOCKETS * expected}` },
    ];
  } finally {
    await Promise.all(sockets.map((s) => s.close()));
    await server.destroy();
  }
}
