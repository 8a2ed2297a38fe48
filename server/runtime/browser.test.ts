import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTree } from './processes.ts';
import { processesWith, tempRuntime, type TempRuntime } from '../../tests/support/temp-runtime.ts';

const PAGE = `<!doctype html><title>Counter</title>
<p id="status">not clicked</p>
<button onclick="document.getElementById('status').textContent = 'clicked'">Click me</button>
<input id="name">
<div style="height: 3000px"></div><p>bottom</p>`;

/** A single-page app: an empty shell at load, its content rendered once its data arrives. */
const SINGLE_PAGE_APP = `<!doctype html><title>App</title><div id="root"></div>
<script>
  setTimeout(() => fetch('/data').then((r) => r.json()).then((data) => {
    document.getElementById('root').textContent = data.greeting;
  }), 100);
</script>`;

let temp: TempRuntime;
let server: http.Server;
let base: string;

beforeAll(async () => {
  temp = await tempRuntime();
  server = http.createServer((request, response) => {
    if (request.url === '/data')
      return void setTimeout(() => response.end(JSON.stringify({ greeting: 'rendered from data' })), 300);
    response.setHeader('content-type', 'text/html');
    response.end(request.url === '/spa' ? SINGLE_PAGE_APP : PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await temp.cleanup();
  await new Promise((resolve) => server.close(resolve));
});

describe('browser', { timeout: 30_000 }, () => {
  it('navigates, clicks, types, scrolls and screenshots', async () => {
    const session = await temp.runtime.start('browser-test');
    const opened = await session.browse({ action: 'navigate', url: base });
    expect(opened).toMatchObject({ url: base, title: 'Counter' });
    expect(opened.text).toContain('not clicked');
    expect(opened.screenshot).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);

    const clicked = await session.browse({ action: 'click', selector: 'button' });
    expect(clicked.text).toContain('clicked');
    expect(clicked.text).not.toContain('not clicked');

    await session.browse({ action: 'type', selector: '#name', text: 'Ada' });
    await session.browse({ action: 'scroll', dy: 1000 });
    const shot = await session.browse({ action: 'screenshot' });
    expect(shot.url).toBe(base);
  });

  it('captures a single-page app once it has rendered its data, not the empty shell of the load event', async () => {
    const session = await temp.runtime.start('browser-spa');
    const opened = await session.browse({ action: 'navigate', url: `${base}spa` });
    expect(opened.text).toContain('rendered from data');
    await session.stop();
  });

  it('keeps conversations apart and refuses local files', async () => {
    const other = await temp.runtime.start('browser-other');
    await expect(other.browse({ action: 'screenshot' })).resolves.toMatchObject({ url: 'about:blank' });
    await expect(other.browse({ action: 'navigate', url: 'file:///etc/passwd' })).rejects.toThrow(
      /Only http and https/,
    );
    // Playwright's call log is left out of the message.
    await expect(other.browse({ action: 'click', selector: '!!!' })).rejects.toThrow(/^[^\n]+$/);
  });

  it('closes the shared browser when the last conversation stops', async () => {
    // Only Chromiums this test process started: other suites may run their own.
    const ours = () => processTree(process.pid).filter((pid) => processesWith('chromium').includes(pid));
    expect(ours().length).toBeGreaterThan(0);
    await temp.runtime.stopAll();
    expect(ours()).toEqual([]);
  });
});
