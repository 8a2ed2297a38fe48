import { SocketClient, waitFor } from '../tests/support/conversations.ts';

/**
 * The fan-out benchmark's clients in a process of their own, as a browser is, apart from the heap
 * the benchmark's process has grown over the other benchmarks, whose garbage collection could hold
 * up the clients' arrival times. `tsx bench/fanout-clients-process.ts URL
 * CONVERSATION LATEST_EVENT SOCKETS WARMUP_COMMANDS COMMANDS` opens the sockets after the given
 * event, runs the commands through the first, and sends the measured deliveries' latencies (ms)
 * to its parent.
 */
const [url = '', id = '', latestArg, socketsArg, warmupArg, commandsArg] = process.argv.slice(2);
const [latest, count, warmupCommands, commands] = [latestArg, socketsArg, warmupArg, commandsArg].map(Number) as [
  number,
  number,
  number,
  number,
];

const sockets: SocketClient[] = [];
try {
  for (let i = 0; i < count; i++)
    sockets.push(await SocketClient.open(url, { conversation_id: id, latest_event_id: latest }));
  const driver = sockets[0] as SocketClient;
  const arrivalsOffset = performance.timeOrigin;
  for (let n = 0; n < warmupCommands + commands; n++) {
    driver.send({ action: 'run', args: { command: `true ${n}`, hidden: true } });
    await driver.waitFor(
      (s) => s.events.filter((e) => e.observation === 'run').length === n + 1,
      'the command',
      30_000,
    );
  }
  const warmupEnd = driver.events[warmupCommands * 2 - 1]?.id ?? latest;
  // Count arrivals without parsing: parsing a socket's frames while others still receive would stamp their arrivals late.
  const total = (warmupCommands + commands) * 2;
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
  process.send?.(latencies);
} finally {
  await Promise.all(sockets.map((s) => s.close()));
  process.disconnect?.();
}
