import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalSession } from '../../server/runtime/session.ts';
import { tempRuntime, type TempRuntime } from '../support/temp-runtime.ts';
import { echoAppSource, WEBSOCKET_PAGE_SCRIPT } from '../support/echo-app.ts';

// The agent's browser is the host's Chromium, driven by a model that reads untrusted pages. On
// the hosted service it must open the conversation's own apps, under either loopback name and
// whichever address family they listen on, WebSockets included, and nothing else that only the
// host reaches: its loopback services, another conversation's app, a cloud's metadata service.
// The internal service below answers whoever reaches it; the test counts who did.

/** An app with a page whose script says whether a WebSocket to its own host echoes. */
const APP = echoAppSource(
  `r.end('<!doctype html><title>Own app</title><p id="ws">waiting</p>' + ${JSON.stringify(WEBSOCKET_PAGE_SCRIPT)})`,
);

let temp: TempRuntime;
let internal: http.Server;
let internalPort: number;
let internalHits = 0;
let own: LocalSession;
let other: LocalSession;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the app in `session`, bound to `address`, and waits until it answers there. */
async function serve(session: LocalSession, address: string): Promise<number> {
  await session.editor({ command: 'create', path: 'app.js', file_text: APP });
  await session.runCommand({ command: `(node app.js ${address} > app.log 2>&1 &)` });
  const port = session.ports[0];
  for (let tries = 0; tries < 100 && !(await session.browserAppTarget(port)); tries++) await sleep(100);
  return port;
}

beforeAll(async () => {
  internal = http.createServer((_request, response) => {
    internalHits += 1;
    response.end('internal secret');
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalPort = (internal.address() as AddressInfo).port;
  temp = await tempRuntime({ browserPolicy: { guarded: true, allowed: [] } });
  own = (await temp.runtime.start('browser-own')) as LocalSession;
  other = (await temp.runtime.start('browser-other')) as LocalSession;
}, 60_000);

afterAll(async () => {
  await temp?.cleanup();
  await new Promise((resolve) => internal.close(resolve));
});

describe('the agent’s browser on the hosted service', { timeout: 60_000 }, () => {
  it('would reach the internal service: it answers whoever connects', async () => {
    expect(await (await fetch(`http://127.0.0.1:${internalPort}/`)).text()).toBe('internal secret');
    internalHits = 0;
  });

  it('opens its own app under both loopback names, whichever family it listens on, WebSockets included', async () => {
    const port = await serve(own, '::1');
    for (const url of [`http://localhost:${port}/`, `http://127.0.0.1:${port}/`, `http://[::1]:${port}/`]) {
      const page = await own.browse({ action: 'navigate', url });
      expect([url, page.title, page.text]).toEqual([url, 'Own app', 'echo hello']);
    }
  });

  it('reaches no service of the host, no other conversation’s app and no metadata service', async () => {
    const theirPort = await serve(other, '0.0.0.0');
    const theirs = (await other.browserAppTarget(theirPort)) as { host: string; port: number };
    // Where their app answers on the host: the app itself opens there for its own agent.
    expect((await other.browse({ action: 'navigate', url: `http://localhost:${theirPort}/` })).title).toBe('Own app');
    for (const url of [
      `http://127.0.0.1:${internalPort}/`,
      `http://localhost:${internalPort}/`,
      `http://[::ffff:127.0.0.1]:${internalPort}/`,
      `http://localhost:${theirPort}/`,
      `http://${theirs.host.includes(':') ? `[${theirs.host}]` : theirs.host}:${theirs.port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
    ]) {
      const page = await own.browse({ action: 'navigate', url });
      expect([url, page.text]).toEqual([url, expect.stringMatching(/is not reachable from Atelier/)]);
    }
    // Over a tunnel (https, WebSockets) too: the agent is told why.
    await expect(own.browse({ action: 'navigate', url: `https://127.0.0.1:${internalPort}/` })).rejects.toThrow(
      /is not reachable from Atelier/,
    );
    expect(internalHits).toBe(0);
  });
});
