import http from 'node:http';
import net from 'node:net';
import { allowedAddressOf, InternalAddressRefused, type AllowedRanges } from '../shared/outbound.ts';

// The agent's browser is the host's Chromium, outside the conversation's network namespace, and
// a model (which reads untrusted pages) drives it. Every connection of a conversation's browser
// context therefore goes through a forward proxy of its own that decides where it may go: the
// conversation's own app ports under a loopback name go to where that app is served (its
// forward into the namespace, whichever address family it listens on), and anything else, in a
// hosted installation, only to the public addresses the outbound guard allows — checked on the
// address connected to, so DNS rebinding gains nothing. Hand-written: the maintained forward
// proxies (proxy, proxy-chain) connect to the name they were given and cannot be made to
// connect to the address that was checked.

/** Where a connection the page asked for goes; throws when it may not (the message says why). */
export type BrowserRoute = (host: string, port: number) => Promise<{ host: string; port: number }>;

/** Names under which a conversation's agent reaches its own apps. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '0.0.0.0']);

/** A served app's port that has nothing listening yet. */
export class NothingServed extends Error {}

/**
 * The route of one conversation's browser: its app ports under a loopback name to `ownApp`,
 * anything else as asked, or (guarded) only to allowed addresses.
 */
export function conversationRoute(options: {
  ports: readonly number[];
  ownApp: (port: number) => Promise<{ host: string; port: number } | null>;
  policy: { guarded: boolean; allowed: AllowedRanges };
}): BrowserRoute {
  return async (host, port) => {
    if (LOOPBACK_NAMES.has(host.toLowerCase()) && options.ports.includes(port)) {
      const target = await options.ownApp(port);
      if (!target) throw new NothingServed(`Nothing is served on port ${port} yet.`);
      return target;
    }
    if (!options.policy.guarded) return { host, port };
    return { host: (await allowedAddressOf(host, options.policy.allowed)).address, port };
  };
}

// Headers of one connection, not of the request (RFC 9110 §7.6.1), and the proxy's own.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.has(name)),
  ) as http.OutgoingHttpHeaders;
}

/** `host:port` of a CONNECT request; `[::1]:443` included. */
function authorityOf(authority: string): { host: string; port: number } | null {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(authority);
  const port = Number(match?.[3]);
  if (!match || !(port > 0 && port < 65536)) return null;
  return { host: (match[1] ?? match[2]) as string, port };
}

const statusOf = (error: unknown) => (error instanceof InternalAddressRefused ? 403 : 502);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A conversation's forward proxy on the host's loopback: plain http requests and CONNECT tunnels. */
export class BrowserProxy {
  private readonly sockets = new Set<net.Socket>();
  /** Why the last refused connection was, for the agent's error message (one: a page may try any number of hosts). */
  private refusal: { host: string; message: string } | null = null;

  private constructor(
    private readonly server: http.Server,
    private readonly route: BrowserRoute,
  ) {
    server.on('connection', (socket: net.Socket) => this.track(socket));
    server.on('request', (request, response) => void this.forward(request, response));
    server.on(
      'connect',
      (request: http.IncomingMessage, socket: net.Socket, head: Buffer) => void this.tunnel(request, socket, head),
    );
  }

  static async start(route: BrowserRoute): Promise<BrowserProxy> {
    const proxy = new BrowserProxy(http.createServer(), route);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', resolve);
    });
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  /** Why a connection to `host` was refused, if that was the last refusal. */
  refusalFor(host: string): string | null {
    const refused = this.refusal;
    return refused?.host === host.replace(/^\[(.*)\]$/, '$1') ? refused.message : null;
  }

  async close(): Promise<void> {
    const closed = new Promise((resolve) => this.server.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private track(socket: net.Socket) {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private async target(host: string, port: number) {
    try {
      const target = await this.route(host, port);
      if (this.refusal?.host === host) this.refusal = null;
      return target;
    } catch (error) {
      this.refusal = { host, message: messageOf(error) };
      throw error;
    }
  }

  private async forward(request: http.IncomingMessage, response: http.ServerResponse) {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      return void response.writeHead(400, { 'content-type': 'text/plain' }).end('A proxy request names an http URL.');
    }
    let to: { host: string; port: number };
    try {
      to = await this.target(url.hostname.replace(/^\[(.*)\]$/, '$1'), Number(url.port || 80));
    } catch (error) {
      return void response.writeHead(statusOf(error), { 'content-type': 'text/plain' }).end(messageOf(error));
    }
    const upstream = http.request({
      host: to.host,
      port: to.port,
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: endToEnd(request.headers),
    });
    upstream.on('response', (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
      answer.pipe(response);
    });
    upstream.on('error', (error) => {
      if (response.headersSent) response.destroy();
      else response.writeHead(502, { 'content-type': 'text/plain' }).end(messageOf(error));
    });
    request.pipe(upstream);
  }

  private async tunnel(request: http.IncomingMessage, socket: net.Socket, head: Buffer) {
    const refuse = (status: number, message: string) =>
      socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain\r\n\r\n${message}`);
    const authority = authorityOf(request.url ?? '');
    if (!authority) return refuse(400, 'CONNECT names a host and a port.');
    let to: { host: string; port: number };
    try {
      to = await this.target(authority.host, authority.port);
    } catch (error) {
      return refuse(statusOf(error), messageOf(error));
    }
    const upstream = net.connect(to.port, to.host);
    this.track(upstream);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.once('error', (error) => (connected ? socket.destroy() : refuse(502, messageOf(error))));
    socket.once('close', () => upstream.destroy());
  }
}
