import { randomBytes } from 'node:crypto';
import net from 'node:net';

const HEAD_END = '\r\n\r\n';
const TEXT_OPCODE = 0x1;

/** A text frame the server sent, with the time (performance.now()) the bytes that completed it arrived. */
export interface ReceivedFrame {
  text: string;
  arrival: number;
}

/** Bytes a reader keeps room for before it has to grow (a few dozen events' frames). */
const INITIAL_CAPACITY = 64 * 1024;

/**
 * A WebSocket client that does the least a reader can do when bytes arrive: stamp them and copy
 * them into room made beforehand. One process holding 1,000 `ws` clients spends as much CPU per
 * event as the server's sends (its frame parsing, validation and events run before each socket's
 * arrival can be stamped), and keeping every arrival's buffer made its young-generation
 * collections copy them all (5–10 ms pauses in which no arrival is stamped): either way later
 * sockets' stamps would measure the reader. Frames are parsed when asked for.
 */
export class FrameReader {
  private received = Buffer.allocUnsafe(INITIAL_CAPACITY);
  /** For each arrival: the bytes received through it, and when (performance.now()). */
  private readonly arrivalEnds: number[] = [];
  private readonly arrivalTimes: number[] = [];
  private readonly parsed: ReceivedFrame[] = [];
  private parsedBytes = 0;
  private parsedArrivals = 0;
  /** Bytes received since the upgrade. */
  bytes = 0;

  private constructor(private readonly socket: net.Socket) {}

  /** Connects and upgrades `GET {baseUrl}/socket?{query}`. */
  static async open(baseUrl: string, query: Record<string, string | number>): Promise<FrameReader> {
    const url = new URL(
      `/socket?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
      baseUrl,
    );
    const socket = net.connect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    const reader = new FrameReader(socket);
    socket.write(
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    const head = await new Promise<Buffer>((resolve, reject) => {
      let received = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        if (received.indexOf(HEAD_END) < 0) return;
        socket.off('data', onData).off('error', reject).off('close', onClose);
        resolve(received);
      };
      const onClose = () => reject(new Error('the socket closed before its upgrade'));
      socket.on('data', onData).on('error', reject).on('close', onClose);
    });
    const end = head.indexOf(HEAD_END) + HEAD_END.length;
    const status = head.subarray(0, end).toString('latin1').split('\r\n')[0] ?? '';
    if (!status.startsWith('HTTP/1.1 101')) {
      socket.destroy();
      throw new Error(`the socket was not upgraded: ${status}`);
    }
    if (end < head.length) reader.keep(head.subarray(end));
    socket.on('data', (chunk: Buffer) => reader.keep(chunk));
    return reader;
  }

  private keep(chunk: Buffer) {
    const time = performance.now();
    if (this.bytes + chunk.length > this.received.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.received.length * 2, this.bytes + chunk.length));
      this.received.copy(larger, 0, 0, this.bytes);
      this.received = larger;
    }
    this.bytes += chunk.copy(this.received, this.bytes);
    this.arrivalEnds.push(this.bytes);
    this.arrivalTimes.push(time);
  }

  /** Every text frame received so far, oldest first. */
  frames(): readonly ReceivedFrame[] {
    for (;;) {
      const frame = frameAt(this.received.subarray(this.parsedBytes, this.bytes));
      if (!frame) return this.parsed;
      const end = this.parsedBytes + frame.end;
      while ((this.arrivalEnds[this.parsedArrivals] as number) < end) this.parsedArrivals++;
      const arrival = this.arrivalTimes[this.parsedArrivals] as number;
      if (frame.opcode === TEXT_OPCODE) this.parsed.push({ text: frame.payload.toString('utf8'), arrival });
      this.parsedBytes = end;
    }
  }

  /** Sends a text frame, masked as every client frame must be. */
  send(text: string) {
    const payload = Buffer.from(text);
    const mask = randomBytes(4);
    const length = payload.length;
    if (length >= 0x10000) throw new Error('frames over 64 KiB are not needed here');
    const head =
      length < 126
        ? Buffer.from([0x80 | TEXT_OPCODE, 0x80 | length])
        : Buffer.from([0x80 | TEXT_OPCODE, 0x80 | 126, length >> 8, length & 0xff]);
    for (let i = 0; i < length; i++) payload[i] = (payload[i] as number) ^ (mask[i % 4] as number);
    this.socket.write(Buffer.concat([head, mask, payload]));
  }

  close() {
    this.socket.destroy();
  }
}

/** The unmasked server frame at the start of `buffer`, or null when it has not all arrived. */
function frameAt(buffer: Buffer): { opcode: number; payload: Buffer; end: number } | null {
  if (buffer.length < 2) return null;
  const opcode = (buffer[0] as number) & 0x0f;
  let length = (buffer[1] as number) & 0x7f;
  let start = 2;
  if (length === 126) {
    if (buffer.length < 4) return null;
    length = buffer.readUInt16BE(2);
    start = 4;
  } else if (length === 127) {
    if (buffer.length < 10) return null;
    length = Number(buffer.readBigUInt64BE(2));
    start = 10;
  }
  const end = start + length;
  return buffer.length < end ? null : { opcode, payload: buffer.subarray(start, end), end };
}
