import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserMissing } from '../support/browser.ts';
import { browserSuite, keepToken, pagesWithoutErrors } from '../support/browser-suite.ts';
import { runInTerminal, SocketClient, waitFor } from '../support/conversations.ts';
import { mailedLink } from '../support/mail.ts';
import type { RunningServer } from '../support/server.ts';
import { chooseMenuItem, menuBar, openMenu, tabButton } from '../support/workspace-page.ts';

// Every page and dialog at the widths people use, from a phone to a desktop: nothing scrolls
// sideways, and every control is inside the window (hosted mode, an active account with an API
// key, a secret and a workspace of four tiles).

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
] as const;
const PASSWORD = 'correct horse battery';

/** How far the page reaches past the right edge of the window (0: it fits). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The elements inside `root` whose content is wider than they are and scrolls sideways, by tag and text. */
const scrollingSideways = (root: Locator) =>
  root.evaluate((element) =>
    [element, ...element.querySelectorAll('*')]
      .filter((node) => {
        const style = getComputedStyle(node);
        return (
          node.scrollWidth > node.clientWidth + 1 &&
          ['auto', 'scroll'].includes(style.overflowX) &&
          node.clientWidth > 0
        );
      })
      .map((node) => `${node.tagName.toLowerCase()}: ${(node.textContent ?? '').slice(0, 40)}`),
  );

/** Whether the control lies wholly inside the window. */
async function insideWindow(page: Page, control: Locator): Promise<boolean> {
  const box = await control.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5;
}

/** An active account with credit, an API key, a secret, a saved layout of four tiles and a conversation. */
async function activeAccount(server: RunningServer) {
  const { url, admin } = server;
  const post = (path: string, body: unknown, token?: string, method = 'POST') =>
    fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
  const email = `widths.${Date.now()}@acme-e2e.dev`;
  expect((await post('/api/auth/register', { name: 'Ada Lovelace-Byron', email, password: PASSWORD })).status).toBe(
    200,
  );
  const verification = new URLSearchParams((await mailedLink(server, email)).split('?')[1]).get('token');
  expect((await post('/api/auth/verify-email', { token: verification })).status).toBe(200);
  expect((await admin('activate-user', email)).code).toBe(0);
  expect((await admin('grant-credits', email, '5')).code).toBe(0);
  const { access_token: token } = (await (await post('/api/auth/login', { email, password: PASSWORD })).json()) as {
    access_token: string;
  };
  expect((await post('/api/keys', { name: 'A key with a rather long descriptive name' }, token)).ok).toBe(true);
  expect(
    (
      await post(
        '/api/secrets',
        { name: 'A_SECRET_WITH_A_LONG_NAME', value: 'x', description: 'Used by the app' },
        token,
      )
    ).status,
  ).toBe(200);
  const tile = (id: string, component: string) => ({
    type: 'tabset',
    id,
    weight: 25,
    children: [{ type: 'tab', id: component, component, name: `tabs.${component}` }],
  });
  const four = {
    global: {},
    borders: [],
    layout: {
      type: 'row',
      id: 'root',
      weight: 100,
      children: [tile('a', 'chat'), tile('b', 'changes'), tile('c', 'browser'), tile('d', 'app')],
    },
  };
  expect((await post('/api/user/layouts/Four', { layout: four }, token, 'PUT')).ok).toBe(true);
  const created = await post('/api/conversations', {}, token);
  const { conversation_id: conversationId } = (await created.json()) as { conversation_id: string };
  // It serves a web app, for the App tab's address bar.
  await waitFor(
    async () =>
      (await (
        await fetch(`${url}/api/conversations/${conversationId}`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { status: string },
    (conversation) => conversation.status === 'RUNNING',
    30_000,
    'the conversation to run',
  );
  const app =
    "require('node:http').createServer((q, r) => r.end('<p>served</p>')).listen(Number(process.env.APP_PORT_1))";
  expect(
    (await post(`/api/conversations/${conversationId}/save-file`, { path: 'app.js', content: app }, token)).ok,
  ).toBe(true);
  const socket = await SocketClient.open(
    url,
    { conversation_id: conversationId, latest_event_id: -1 },
    { authorization: `Bearer ${token}` },
  );
  await runInTerminal(socket, '(node app.js > app.log 2>&1 &)');
  await socket.close();
  return { token, conversationId };
}

describe.skipIf(browserMissing())('every width from a phone to a desktop', () => {
  const suite = browserSuite({ mode: 'saas' });
  const openPage = pagesWithoutErrors();

  it.each(WIDTHS)(
    'at $width × $height no page or dialog scrolls sideways',
    async (size) => {
      const { server, browser } = suite;
      const { token, conversationId } = await activeAccount(server);
      const page = await openPage(browser);
      await page.setViewportSize(size);
      await keepToken(page, server.url, token);
      const problems: string[] = [];
      const check = async (where: string, controls: Locator[] = []) => {
        const past = await overflow(page);
        if (past > 0) problems.push(`${where}: the page is ${past} px too wide`);
        for (const control of controls)
          if (!(await insideWindow(page, control))) problems.push(`${where}: ${String(control)} is outside the window`);
        const scrolling = await scrollingSideways(page.locator('body'));
        if (scrolling.length > 0) problems.push(`${where}: scrolls sideways: ${scrolling.join(' | ')}`);
      };

      await page.goto(`${server.url}/dashboard`);
      await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
      await check('dashboard');
      for (const [path, heading] of [
        ['/settings/user', 'Settings'],
        ['/settings/api-keys', 'Settings'],
        ['/settings/secrets', 'Settings'],
        ['/settings/billing', 'Settings'],
        ['/profile', 'Profile'],
      ] as const) {
        await page.goto(`${server.url}${path}`);
        await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
        await page.waitForLoadState('networkidle');
        const revoke = page.getByRole('button', { name: /^(Revoke|Delete) / });
        await check(path, (await revoke.count()) > 0 ? [revoke.first()] : []);
      }

      await page.goto(`${server.url}/experiment/conversations/${conversationId}`);
      await tabButton(page, 'Chat').waitFor({ timeout: 30_000 });
      await chooseMenuItem(page, 'Layout', 'Saved: Four');
      await tabButton(page, 'Changes').waitFor();
      const menus = menuBar(page).getByRole('button');
      const tabSets = await page.locator('.flexlayout__tabset').all();
      await check('workspace with four tiles', [menus.first(), menus.last(), ...tabSets]);
      // The web app's address stays wide enough to read, also beside the open conversation list.
      const showList = page.getByRole('button', { name: 'Show conversations' });
      if ((await showList.count()) > 0) await showList.click();
      await tabButton(page, 'App').click();
      const address = page.getByLabel('Address of the web app');
      const addressWidth = (await address.boundingBox())?.width ?? 0;
      if (addressWidth < 160) problems.push(`the App address field is ${addressWidth} px wide`);
      await check('the App tab beside the conversation list', [address]);
      await openMenu(page, 'File');
      await page.getByRole('menuitem', { name: 'Deployments' }).click();
      const deployments = page.getByRole('dialog', { name: 'Deployments' });
      await deployments.waitFor();
      await check('the Deployments dialog', [deployments]);
      await page.keyboard.press('Escape');
      await deployments.waitFor({ state: 'detached' });
      expect(problems).toEqual([]);
      await page.close();
    },
    120_000,
  );
});
