import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowedRanges } from '../shared/outbound.ts';
import { BrowserProxy, conversationRoute, type BrowserRoute } from './browser-proxy.ts';

let upstream: http.Server;
let upstreamPort: number;
const seen: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  upstream = http.createServer((request, response) => {
    seen.push(request.headers);
    response.setHeader('connection', 'close, x-hop');
    response.setHeader('x-hop', 'dropped');
    response.end(`${request.method} ${request.url} host=${request.headers.host}`);
  });
  upstream.on('connect', (_request, socket: net.Socket) => socket.end());
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => upstream.close(resolve)));

/** A request through the proxy as a browser sends it: the absolute URL as its target. */
function viaProxy(proxy: BrowserProxy, url: string, headers: Record<string, string> = {}) {
  const { port } = new URL(proxy.url);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: url, headers: { host: new URL(url).host, ...headers } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      })
      .on('error', reject);
  });
}

/** A CONNECT through the proxy: the status line it answers. */
function tunnel(proxy: BrowserProxy, authority: string) {
  const { port } = new URL(proxy.url);
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () =>
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n\r\n`),
    );
    socket.once('data', (data) => {
      resolve(data.toString().split('\r\n')[0] ?? '');
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

describe('the agent browser’s forward proxy', () => {
  it('forwards to where the route says, keeping the Host and dropping hop-by-hop headers both ways', async () => {
    const asked: string[] = [];
    const route: BrowserRoute = async (host, port) => {
      asked.push(`${host}:${port}`);
      return { host: '127.0.0.1', port: upstreamPort };
    };
    const proxy = await BrowserProxy.start(route);
    const answer = await viaProxy(proxy, 'http://app.example:8080/page?x=1', {
      'proxy-authorization': 'Basic secret',
      'proxy-connection': 'keep-alive',
    });
    expect(answer).toMatchObject({ status: 200, body: 'GET /page?x=1 host=app.example:8080' });
    expect(answer.headers['x-hop']).toBeUndefined();
    expect(seen.at(-1)).not.toHaveProperty('proxy-authorization');
    expect(seen.at(-1)).not.toHaveProperty('proxy-connection');
    expect(asked).toEqual(['app.example:8080']);
    expect(await tunnel(proxy, `[::1]:443`)).toBe('HTTP/1.1 200 Connection Established');
    expect(asked.at(-1)).toBe('::1:443');
    await proxy.close();
  });

  it('answers a refusal with its reason, and remembers it for the host', async () => {
    const route = conversationRoute({
      ports: [20001],
      ownApp: async () => null,
      policy: { guarded: true, allowed: [] },
    });
    const proxy = await BrowserProxy.start(route);
    const refused = await viaProxy(proxy, `http://127.0.0.1:${upstreamPort}/`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatch(/^127\.0\.0\.1 is not reachable from Atelier/);
    expect(await tunnel(proxy, `127.0.0.1:${upstreamPort}`)).toBe('HTTP/1.1 403 Forbidden');
    expect(proxy.refusalFor('127.0.0.1')).toMatch(/not reachable from Atelier/);
    // The conversation's own port, with nothing served yet.
    expect(await viaProxy(proxy, 'http://localhost:20001/')).toMatchObject({
      status: 502,
      body: 'Nothing is served on port 20001 yet.',
    });
    expect(await tunnel(proxy, 'not-an-authority')).toBe('HTTP/1.1 400 Bad Request');
    await proxy.close();
  });
});

describe('a conversation’s route', () => {
  const ownApp = async (port: number) => ({ host: '127.0.0.1', port: port + 1 });

  it('sends its own ports under every loopback name to its app, whatever the policy', async () => {
    const route = conversationRoute({ ports: [20001], ownApp, policy: { guarded: true, allowed: [] } });
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '::1', '0.0.0.0'])
      expect(await route(host, 20001)).toEqual({ host: '127.0.0.1', port: 20002 });
  });

  it('guarded, connects to the checked address only, or to an allowed range', async () => {
    const guarded = conversationRoute({ ports: [20001], ownApp, policy: { guarded: true, allowed: [] } });
    for (const [host, port] of [
      ['localhost', 20003],
      ['127.0.0.1', 3000],
      ['169.254.169.254', 80],
      ['fd00::1', 80],
      ['100.64.0.1', 80],
    ] as const)
      await expect(guarded(host, port)).rejects.toThrow(/is not reachable from Atelier/);
    expect(await guarded('93.184.215.14', 443)).toEqual({ host: '93.184.215.14', port: 443 });
    const lan = conversationRoute({
      ports: [],
      ownApp,
      policy: { guarded: true, allowed: parseAllowedRanges('10.0.0.0/8') },
    });
    expect(await lan('10.1.2.3', 443)).toEqual({ host: '10.1.2.3', port: 443 });
  });

  it('unguarded (self-hosted), connects where it is asked', async () => {
    const open = conversationRoute({ ports: [], ownApp, policy: { guarded: false, allowed: [] } });
    expect(await open('localhost', 3000)).toEqual({ host: 'localhost', port: 3000 });
  });
});
