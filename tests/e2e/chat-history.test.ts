import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { browserMissing } from '../support/browser.ts';
import { waitFor } from '../support/conversations.ts';
import { browserSuite, pagesWithoutErrors } from '../support/browser-suite.ts';

// A conversation longer than one history page: the chat opens at its newest message, and
// scrolling up loads the older pages until the first message, each row once and in order.

const MESSAGES = 130;
const at = '2026-01-01T00:00:00Z';
const trajectory = Array.from({ length: MESSAGES }, (_, i) => ({
  id: i,
  timestamp: at,
  source: i % 2 ? 'agent' : 'user',
  action: 'message',
  message: `history message ${i}`,
  args: { content: `history message ${i}` },
}));

/** The message numbers of the rows in the DOM, in list order. */
const shownNumbers = (rows: Locator) =>
  rows.evaluateAll((elements) =>
    elements
      .sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')))
      .map((element) => Number(/history message (\d+)/.exec(element.textContent ?? '')?.[1] ?? -1)),
  );

describe.skipIf(browserMissing())('a long chat history in the browser', () => {
  const suite = browserSuite({ mode: 'oss' });
  const openPage = pagesWithoutErrors();

  /** A conversation of the trajectory's messages, replayed (the replay runs on after them). */
  async function replayedConversation() {
    const { server } = suite;
    const created = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ replay_json: JSON.stringify(trajectory) }),
    });
    const { conversation_id: id } = (await created.json()) as { conversation_id: string };
    await waitFor(
      async () => (await (await fetch(`${server.url}/api/conversations/${id}`)).json()) as { status: string },
      (c) => c.status === 'RUNNING',
      60_000,
      'the replay',
    );
    return id;
  }

  it('opens at the newest message and loads older pages, in order and without gaps, as the reader scrolls up', async () => {
    const { server, browser } = suite;
    const id = await replayedConversation();

    const page = await openPage(browser);
    const assets: string[] = [];
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/assets/')) assets.push(request.url());
      if (url.pathname.startsWith('/api/')) calls.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    await page.goto(`${server.url}/experiment/conversations/${id}`);
    const log = page.getByRole('log');
    const rows = log.locator('[data-index]');
    await log.getByText(`history message ${MESSAGES - 1}`, { exact: true }).waitFor();
    // Each file the page announced in its head is fetched once: its later loader takes the announced copy.
    expect(assets.filter((url, i) => assets.indexOf(url) !== i)).toEqual([]);
    // What the route asked for early (the conversation and its newest page) the workspace takes: no call is made twice.
    expect(calls.filter((call, i) => calls.indexOf(call) !== i)).toEqual([]);
    // It opens at the bottom: the rows shown are the newest.
    expect(Math.min(...(await shownNumbers(rows)).filter((n) => n >= 0))).toBeGreaterThan(MESSAGES - 60);

    // The reader scrolls to the top until the first message is shown; every older page keeps the
    // rows in order.
    await log.hover();
    await waitFor(
      async () => {
        await page.mouse.wheel(0, -10_000);
        return shownNumbers(rows);
      },
      (numbers) => numbers.includes(0),
      30_000,
      'the first message',
    );

    // Walking down the whole list shows every message once, ascending.
    const seen = new Set<number>();
    const { height, step } = await log.evaluate((element) => ({
      height: element.scrollHeight,
      step: element.clientHeight / 2,
    }));
    for (let top = 0; top <= height; top += step) {
      // Two frames: the scroll event, then the virtualiser's render of the rows there.
      await log.evaluate((element, to) => {
        element.scrollTo({ top: to });
        return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      }, top);
      const numbers = (await shownNumbers(rows)).filter((n) => n >= 0);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      expect(new Set(numbers).size).toBe(numbers.length);
      for (const n of numbers) seen.add(n);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(trajectory.map((_, i) => i));
    await page.close();
  }, 120_000);

  it('stays at the newest message when the layout arrives after the chat was drawn', async () => {
    const { server, browser } = suite;
    const id = await replayedConversation();
    const page = await openPage(browser);
    // The layout's script is held until the first frame shows the chat at its end; then the chat
    // moves into its tile, which resets a moved element's scroll position.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/LayoutView-[^/]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${server.url}/experiment/conversations/${id}`);
    const log = page.getByRole('log');
    await log.getByText(`history message ${MESSAGES - 1}`, { exact: true }).waitFor();
    release();
    await page.locator('.flexlayout__tabset').first().waitFor();
    await waitFor(
      () => log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight),
      (distance) => distance <= 20,
      5_000,
      'the chat at its end in its tile',
    );
    // Still following: no offer to scroll to the latest message, and no older page asked for.
    const toLatest = page.getByRole('button', { name: 'Scroll to the latest message' });
    expect(await toLatest.count()).toBe(0);
    expect(await log.getByText(`history message ${MESSAGES - 100}`, { exact: true }).count()).toBe(0);
    // A scroll up that the reader did not make (the virtualiser's or the browser's own) leaves it
    // following; the reader's wheel stops it.
    await log.evaluate((element) => {
      element.scrollBy({ top: -200 });
      return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    });
    expect(await toLatest.count()).toBe(0);
    await log.hover();
    await page.mouse.wheel(0, -400);
    await toLatest.waitFor();
    await page.close();
  }, 120_000);
});
