import { spawn } from 'node:child_process';
import net from 'node:net';
import { once } from 'node:events';
import type { BenchResult } from './result.ts';
import { quantile, round } from './stats.ts';

const SOCKETS = 1000;
const ROUNDS = 50;
const WARMUP_ROUNDS = 10;
const FRAME_BYTES = 500;

// Another process holds the sockets' other ends, as the fan-out's clients do: it connects them,
// then prints a line each time every socket has received one more frame.
const READER = `
const net = require('node:net');
const [port, count, frameBytes] = process.argv.slice(1).map(Number);
let connected = 0, received = 0;
for (let i = 0; i < count; i++) {
  const socket = net.connect(port, '127.0.0.1', () => { if (++connected === count) console.log('ready'); });
  socket.on('data', (data) => {
    received += data.length;
    if (received % (count * frameBytes) === 0) console.log('round');
  });
}`;

/**
 * The floor under the fan-out: node writing one frame to each of 1,000 loopback TCP sockets whose
 * reader waits in another process. Each write is a system call that, on loopback, also queues the
 * data at the reader and wakes it: the kernel's part of every delivery, which no server code avoids.
 */
export async function benchLoopbackFloor(): Promise<BenchResult[]> {
  const server = net.createServer();
  const accepted: net.Socket[] = [];
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
    accepted.push(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  const reader = spawn(process.execPath, ['-e', READER, String(port), String(SOCKETS), String(FRAME_BYTES)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  reader.stdout.setEncoding('utf8');
  reader.stdout.on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      lines.push(line);
      waiters.shift()?.();
    }
  });
  // A reader that ends answers every wait with no line, which the checks below turn into an error.
  reader.on('exit', () => waiters.splice(0).forEach((wake) => wake()));
  const nextLine = () =>
    (lines.length > 0 || reader.exitCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push(resolve))
    ).then(() => lines.shift());
  try {
    if ((await nextLine()) !== 'ready') throw new Error('the reader did not connect');
    while (accepted.length < SOCKETS) await new Promise((resolve) => setTimeout(resolve, 10));
    const frame = Buffer.alloc(FRAME_BYTES, 'x');
    const loops: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const start = performance.now();
      for (const socket of accepted) socket.write(frame);
      loops.push(performance.now() - start);
      if ((await nextLine()) !== 'round') throw new Error('the reader lost a frame');
    }
    const measured = loops.slice(WARMUP_ROUNDS);
    const name = `the floor: one ${FRAME_BYTES}-byte write to each of ${SOCKETS} loopback sockets, a reader process waiting, ${measured.length} rounds after ${WARMUP_ROUNDS}`;
    return [
      { name, metric: 'time for the 1,000 writes, p50', value: round(quantile(measured, 0.5)), unit: 'ms' },
      { name, metric: 'time for the 1,000 writes, p99', value: round(quantile(measured, 0.99)), unit: 'ms' },
    ];
  } finally {
    reader.kill();
    for (const socket of accepted) socket.destroy();
    server.close();
  }
}
