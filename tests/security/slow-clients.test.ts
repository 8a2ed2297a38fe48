import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { withTestApp } from '../support/app.ts';
import { listen } from '../support/conversations.ts';

// Connections as a slow-loris attack holds them: a request trickled a byte at a time, and more
// connections from one address than it may have. The first is cut off at the request timeout,
// the others are refused at once, and the server answers everyone else meanwhile.

const t = withTestApp({ REQUEST_TIMEOUT_SECONDS: '2', CONNECTIONS_PER_ADDRESS: '20' });
let port: number;

beforeAll(async () => {
  port = Number(new URL(await listen(t.app)).port);
});

const connect = () =>
  new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

/** When `socket` closes: ms after `since`, and what the server said before. */
const closing = (socket: net.Socket, since: number) =>
  new Promise<{ after: number; said: string }>((resolve) => {
    let said = '';
    socket.on('data', (data) => (said += String(data)));
    socket.once('close', () => resolve({ after: performance.now() - since, said }));
  });

describe('slow and many connections', () => {
  it('cut off a request that trickles in, at the request timeout', async () => {
    const socket = await connect();
    const started = performance.now();
    const closed = closing(socket, started);
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{',
    );
    socket.on('error', () => undefined);
    const trickle = setInterval(() => socket.writable && socket.write(' '), 300);
    const { after, said } = await closed;
    clearInterval(trickle);
    expect(said).toMatch(/^HTTP\/1\.1 408/);
    // 2 s, checked every second.
    expect(after).toBeGreaterThan(1500);
    expect(after).toBeLessThan(4500);
  });

  it('refuse connections past the limit of one address, and take them again once some close', async () => {
    const held = await Promise.all(Array.from({ length: 20 }, connect));
    const extra = await connect();
    const { after, said } = await closing(extra, performance.now());
    expect(said).toBe('');
    expect(after).toBeLessThan(1000);
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });
});
