import { describe, expect, it } from 'vitest';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { browserSuite, pagesWithoutErrors } from '../support/browser-suite.ts';
import { runInTerminal, SocketClient, waitFor } from '../support/conversations.ts';
import { openMenu, tabButton } from '../support/workspace-page.ts';
import { echoAppSource, WEBSOCKET_PAGE_SCRIPT } from '../support/echo-app.ts';

// The owner sees the app a conversation serves, in the App tab, through Atelier's app proxy: at
// the README's address (localhost) and at 127.0.0.1, its WebSocket included (as a dev server's
// hot reload talks to its page).

/** A page that opens a WebSocket to its own origin and shows what comes back: plain Node, no packages. */
const APP = echoAppSource(
  `r.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Served</title><p id="hello">served app</p><p id="ws">waiting</p>' + ${JSON.stringify(WEBSOCKET_PAGE_SCRIPT)})`,
);

describe.skipIf(browserMissing())('a served app in the App tab', () => {
  const suite = browserSuite({ mode: 'oss' });
  const openPage = pagesWithoutErrors();

  it('shows the owner the app and its WebSocket, at localhost and at 127.0.0.1', async () => {
    const { server, browser } = suite;
    const created = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    const id = ((await created.json()) as { conversation_id: string }).conversation_id;
    await waitFor(
      async () => (await (await fetch(`${server.url}/api/conversations/${id}`)).json()) as { status: string },
      (conversation) => conversation.status === 'RUNNING',
      30_000,
      'the conversation to run',
    );
    await fetch(`${server.url}/api/conversations/${id}/save-file`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'app.js', content: APP }),
    });
    const socket = await SocketClient.open(server.url, { conversation_id: id, latest_event_id: -1 });
    await runInTerminal(socket, '(node app.js > app.log 2>&1 &)');
    await socket.close();

    for (const host of ['localhost', '127.0.0.1']) {
      const page = await openPage(browser);
      await page.goto(`http://${host}:${server.port}/experiment/conversations/${id}`);
      await tabButton(page, 'App').click();
      const frame = page.frameLocator('iframe[title="Web app served by the workspace"]');
      await frame.locator('#hello').waitFor({ timeout: 20_000 });
      await waitFor(
        () => frame.locator('#ws').innerText(),
        (text) => text === 'echo hello',
        10_000,
        `the app's WebSocket at ${host}`,
      );
      // The address bar shows where the app is: the page's own host, the app's port.
      const address = await page.getByRole('textbox', { name: 'Address of the web app' }).inputValue();
      expect(new URL(address).hostname).toBe(host);
      expect(address).not.toContain('atelier_app_token');
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.close();
    }

    // Runtime → Restart ends the app; the App tab offers it again, and it comes back without the agent.
    const page = await openPage(browser);
    await page.goto(`${server.url}/experiment/conversations/${id}`);
    await tabButton(page, 'App').click();
    await page.frameLocator('iframe[title="Web app served by the workspace"]').locator('#hello').waitFor();
    // Restart is offered once the conversation's state is known (it is refreshed now and then).
    await openMenu(page, 'Runtime');
    await page.locator('[role="menuitem"]:not([data-disabled])', { hasText: /^Restart/ }).click();
    await page.getByText('node app.js', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Start the app again' }).click();
    await page.frameLocator('iframe[title="Web app served by the workspace"]').locator('#hello').waitFor();
    await page.close();
  }, 120_000);
});
