import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { browserMissing } from '../support/browser.ts';
import { replayedConversation, SocketClient, waitFor } from '../support/conversations.ts';
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
  const replayed = () => replayedConversation(suite.server.url, trajectory);

  /**
   * Opens the conversation and waits for the chat in its tile. It is drawn in the first frame, before
   * the layout's script arrives, and then moves into its tile: a moved element loses its scroll
   * position, and with it a wheel's scroll that had not yet been reported.
   */
  async function openChatInTile(page: Page, id: string) {
    await page.goto(`${suite.server.url}/experiment/conversations/${id}`);
    const log = page.locator('.flexlayout__tab').getByRole('log');
    await log.getByText(`history message ${MESSAGES - 1}`, { exact: true }).waitFor();
    return log;
  }

  it('opens at the newest message and loads older pages, in order and without gaps, as the reader scrolls up', async () => {
    const { browser } = suite;
    const id = await replayed();

    const page = await openPage(browser);
    const assets: string[] = [];
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/assets/')) assets.push(request.url());
      if (url.pathname.startsWith('/api/')) calls.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    const log = await openChatInTile(page, id);
    const rows = log.locator('[data-index]');
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

  it('stays at the newest message and keeps the focus in the message box when the layout arrives after the chat was drawn', async () => {
    const { server, browser } = suite;
    const id = await replayed();
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
    // The reader starts typing in the first frame, and goes on once the chat is in its tile.
    const box = page.getByRole('textbox', { name: 'Message to the agent' });
    await box.click();
    await page.keyboard.type('Typed before ');
    release();
    await page.locator('.flexlayout__tab').getByRole('log').waitFor();
    await page.keyboard.type('and after');
    expect(await box.inputValue()).toBe('Typed before and after');
    expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
    await waitFor(
      () => log.evaluate((element) => element.scrollHeight - element.clientHeight - element.scrollTop),
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

  it('keeps the reader’s place while newer and older rows arrive, and follows the end again at their word', async () => {
    const { server, browser } = suite;
    const id = await replayed();
    const page = await openPage(browser);
    const log = await openChatInTile(page, id);
    const toLatest = page.getByRole('button', { name: 'Scroll to the latest message' });
    await log.hover();
    await page.mouse.wheel(0, -300);
    await toLatest.waitFor();

    // What the reader sees keeps its distance from the log's bottom (the panel below it may change
    // height meanwhile).
    /** The first row whose top is in view: its message, and its distance from the log's bottom. */
    const anchor = () =>
      log.evaluate((element) => {
        const { top, bottom } = element.getBoundingClientRect();
        const row = [...element.querySelectorAll('[data-index]')]
          .map((node) => ({
            text: /history message \d+/.exec(node.textContent ?? '')?.[0],
            top: node.getBoundingClientRect().top,
          }))
          .filter((candidate) => candidate.top >= top && candidate.text)
          .sort((a, b) => a.top - b.top)[0];
        return row && { text: row.text, fromBottom: Math.round(bottom - row.top) };
      });
    /** Where the row of this message is now. */
    const placeOf = (text: string | undefined) =>
      log.evaluate((element, text) => {
        const { bottom } = element.getBoundingClientRect();
        const row = [...element.querySelectorAll('[data-index]')].find(
          (node) => /history message \d+/.exec(node.textContent ?? '')?.[0] === text,
        );
        return row && { text, fromBottom: Math.round(bottom - row.getBoundingClientRect().top) };
      }, text);
    // Until the position has not moved for five frames (a wheel scrolls smoothly, over many frames).
    const settled = () =>
      log.evaluate(
        (element) =>
          new Promise((resolve) => {
            let last = NaN;
            let still = 0;
            const check = () => {
              still = element.scrollTop === last ? still + 1 : 0;
              last = element.scrollTop;
              if (still >= 5) resolve(last);
              else requestAnimationFrame(check);
            };
            requestAnimationFrame(check);
          }),
      );
    await settled();
    const before = await anchor();
    expect(before?.text).toBeDefined();

    // Newer rows come after the last one, below the reader's view: it does not move.
    const socket = await SocketClient.open(server.url, { conversation_id: id, latest_event_id: 1_000_000_000 });
    for (let n = 0; n < 3; n++) socket.send({ action: 'run', args: { command: `echo kept-${n}`, hidden: false } });
    await waitFor(
      async () =>
        (await (await fetch(`${server.url}/api/conversations/${id}/events?limit=10`)).json()) as {
          events: { observation?: string; content?: string }[];
        },
      (page) => page.events.some((event) => event.observation === 'run' && event.content?.includes('kept-2')),
      30_000,
      'the commands’ output',
    );
    await socket.close();
    await page.waitForTimeout(300);
    await settled();
    expect(await placeOf(before?.text)).toEqual(before);
    expect(await toLatest.count()).toBe(1);

    // Older rows come before the first one, above it: the reader's view does not move either. The
    // older page is held until the place is taken.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    await page.route(/\/events\?.*before_id=/, async (route) => {
      asked = true;
      await released;
      await route.continue();
    });
    const fromTop = await log.evaluate((element) => element.scrollTop);
    await page.mouse.wheel(0, -(fromTop - 100));
    await settled();
    expect(asked).toBe(true);
    const nearTop = await anchor();
    const indexOf = (text: string | undefined) =>
      log.evaluate(
        (element, text) =>
          [...element.querySelectorAll('[data-index]')]
            .find((node) => /history message \d+/.exec(node.textContent ?? '')?.[0] === text)
            ?.getAttribute('data-index'),
        text,
      );
    const indexBefore = Number(await indexOf(nearTop?.text));
    release();
    await waitFor(
      async () => Number(await indexOf(nearTop?.text)),
      (index) => index > indexBefore,
      30_000,
      'an older page',
    );
    await settled();
    expect(await placeOf(nearTop?.text)).toEqual(nearTop);

    // At the reader's word the list goes back to its end, with the newest row in view.
    await toLatest.click();
    await log.getByText('kept-2').first().waitFor();
    await toLatest.waitFor({ state: 'detached' });
    expect(
      await log.evaluate((element) => element.scrollHeight - element.clientHeight - element.scrollTop),
    ).toBeLessThanOrEqual(20);
    await page.close();
  }, 120_000);
});
