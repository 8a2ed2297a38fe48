import { waitFor } from '../tests/support/conversations.ts';
import { FrameReader, type ReceivedFrame } from './frame-reader.ts';

/**
 * The fan-out benchmark's clients in a process of their own, as a browser is, apart from the heap
 * the benchmark's process has grown over the other benchmarks, whose garbage collection could hold
 * up the clients' arrival times. `tsx bench/fanout-clients-process.ts URL
 * CONVERSATION LATEST_EVENT SOCKETS WARMUP_COMMANDS COMMANDS` opens the sockets after the given
 * event, runs the commands through the first, checks every socket got every event once and in
 * order, and sends the measured deliveries' latencies (ms) to its parent.
 */
const [url = '', id = '', latestArg, socketsArg, warmupArg, commandsArg] = process.argv.slice(2);
const [latest, count, warmupCommands, commands] = [latestArg, socketsArg, warmupArg, commandsArg].map(Number) as [
  number,
  number,
  number,
  number,
];

interface EventFrame {
  type: string;
  data?: { id: number; timestamp: string; observation?: string };
}
type ParsedFrame = ReceivedFrame & { parsed: EventFrame };
/** Each reader's frames, parsed once: the driver is polled while the other sockets receive. */
const parsedFrames = new Map<FrameReader, ParsedFrame[]>();
function eventsOf(reader: FrameReader): ParsedFrame[] {
  const parsed = parsedFrames.get(reader) ?? [];
  parsedFrames.set(reader, parsed);
  for (const frame of reader.frames().slice(parsed.length))
    parsed.push({ ...frame, parsed: JSON.parse(frame.text) as EventFrame });
  return parsed;
}

const readers: FrameReader[] = [];
try {
  for (let i = 0; i < count; i++)
    readers.push(await FrameReader.open(url, { conversation_id: id, latest_event_id: latest }));
  const driver = readers[0] as FrameReader;
  const arrivalsOffset = performance.timeOrigin;
  for (let n = 0; n < warmupCommands + commands; n++) {
    driver.send(
      JSON.stringify({ type: 'oh_user_action', data: { action: 'run', args: { command: `true ${n}`, hidden: true } } }),
    );
    await waitFor(
      () => eventsOf(driver).filter((e) => e.parsed.data?.observation === 'run').length,
      (runs) => runs === n + 1,
      30_000,
      'the command',
    );
  }
  // Wait by counting bytes: parsing frames while other sockets still receive would stamp their arrivals late.
  await waitFor(
    () => readers.every((r) => r.bytes >= driver.bytes),
    (all) => all,
    30_000,
    'every event on every socket',
  );
  const expected = eventsOf(driver).map((e) => e.parsed.data?.id);
  if (expected.length !== (warmupCommands + commands) * 2) throw new Error(`the driver got ${expected.length} events`);
  const warmupEnd = expected[warmupCommands * 2 - 1] ?? latest;
  const latencies: number[] = [];
  for (const reader of readers) {
    const events = eventsOf(reader);
    if (events.map((e) => e.parsed.data?.id).join() !== expected.join())
      throw new Error('a socket did not get every event once and in order');
    for (const { parsed, arrival } of events)
      if (parsed.data && parsed.data.id > warmupEnd)
        latencies.push(arrivalsOffset + arrival - Date.parse(parsed.data.timestamp));
  }
  // Disconnecting drops a message still being written: wait for it.
  await new Promise<void>((resolve) =>
    process.send ? process.send(latencies, undefined, {}, () => resolve()) : resolve(),
  );
} finally {
  readers.forEach((reader) => reader.close());
  process.disconnect?.();
}
