import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { browserSuite, pagesWithoutErrors } from '../support/browser-suite.ts';
import { waitFor } from '../support/conversations.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';
import type { RunningServer } from '../support/server.ts';
import { chooseMenuItem } from '../support/workspace-page.ts';
import type { Event } from '../../openapi/types.ts';

// Forking in the browser: "Fork from here" on a step in the middle opens a new conversation
// whose Changes tab and chat hold what was there at that step; "Edit and retry" on the user's
// message (E on the focused row) sends the edited text in a fork that ends just before it.

const STEPS = ['echo one > a.txt', 'echo two > b.txt', 'rm a.txt && echo three > c.txt'];

async function eventsOf(server: RunningServer, conversationId: string): Promise<Event[]> {
  const response = await fetch(`${server.url}/api/conversations/${conversationId}/events?limit=100`);
  return ((await response.json()) as { events: Event[] }).events.reverse();
}

/** The chat's row whose text has `text`. */
const chatRow = (page: Page, text: string) =>
  page.getByRole('log', { name: 'Messages' }).locator('[data-index]').filter({ hasText: text });

const conversationOf = (page: Page) => new URL(page.url()).pathname.split('/').at(-1) ?? '';

const EXPECTED_ROWS = ['echo one', 'echo two', 'echo three', 'Three steps taken.'];

interface FrameSample {
  path: string;
  rows: Record<string, number>;
}

/** In the page: how many of the chat's rows hold each text, read at once (separate counts can straddle a render). */
function rowsShown(texts: string[]): Record<string, number> {
  const rows = [...document.querySelectorAll('[role="log"][aria-label="Messages"] [data-index]')].map(
    (row) => row.textContent ?? '',
  );
  return Object.fromEntries(texts.map((text) => [text, rows.filter((row) => row.includes(text)).length]));
}

/** In the page: records the rows after every painted frame (a message posted from a frame callback runs after its paint). */
function startFrameSampler(texts: string[]): void {
  const samples: FrameSample[] = [];
  (window as unknown as { shownFrames: FrameSample[] }).shownFrames = samples;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const rows = [...document.querySelectorAll('[role="log"][aria-label="Messages"] [data-index]')].map(
      (row) => row.textContent ?? '',
    );
    samples.push({
      path: location.pathname,
      rows: Object.fromEntries(texts.map((text) => [text, rows.filter((row) => row.includes(text)).length])),
    });
  };
  const frame = () => {
    channel.port2.postMessage(null);
    if (samples.length < 5000) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

describe.skipIf(browserMissing())('forking in the browser', () => {
  const llm = new FakeLlm('fake-model');
  const suite = browserSuite({ mode: 'oss', llm });
  const openPage = pagesWithoutErrors();

  it('forks from a step in the middle: the fork has the files and the history of then, the original stays as it was', async () => {
    const { server, browser } = suite;
    llm.enqueue(
      reply.text('Three files', { when: withoutTools }),
      ...STEPS.map((command) => reply.toolCall('execute_bash', { command, security_risk: 'LOW' }, { when: withTools })),
      reply.toolCall('finish', { message: 'Three steps taken.', task_completed: 'true' }, { when: withTools }),
    );
    const created = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ initial_user_msg: 'Take three steps' }),
    });
    const originalId = ((await created.json()) as { conversation_id: string }).conversation_id;
    await waitFor(
      () => eventsOf(server, originalId),
      (list) => list.some((event) => event.action === 'finish'),
      30_000,
      'the three steps',
    );

    const page = await openPage(browser);
    await page.goto(`${server.url}/experiment/conversations/${originalId}`);
    await chatRow(page, 'Three steps taken.').waitFor();
    const middle = chatRow(page, 'echo two');
    await middle.hover();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // The row's menu holds the same command; edit and retry only on the user's own messages.
    await middle.getByRole('button', { name: 'Actions for this message' }).click();
    expect(await page.getByRole('menuitem').allInnerTexts()).toEqual(['Fork from here']);
    await page.keyboard.press('Escape');
    await chatRow(page, 'Take three steps').hover();
    // Beside the user's own message, not over it.
    const own = chatRow(page, 'Take three steps');
    const ownTools = own.getByRole('button', { name: 'Actions for this message' });
    await ownTools.waitFor();
    const [tools, bubble] = await Promise.all([
      ownTools.boundingBox(),
      own.getByText('Take three steps').boundingBox(),
    ]);
    expect(tools && bubble && tools.x + tools.width <= bubble.x).toBe(true);
    await ownTools.click();
    expect(await page.getByRole('menuitem').allInnerTexts()).toEqual(['Fork from here', 'Edit and retry']);
    await page.keyboard.press('Escape');
    // What a person sees: the chat's rows once each frame has been painted, from the click on.
    await page.evaluate(startFrameSampler, EXPECTED_ROWS);
    await middle.hover();
    await middle.getByRole('button', { name: 'Fork from here' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith(originalId), { timeout: 30_000 });
    const forkId = conversationOf(page);

    // The whole history up to the step, nothing after it, in one reading of the chat.
    const history = await waitFor(
      () => page.evaluate(rowsShown, EXPECTED_ROWS),
      (rows) => rows['echo one'] === 1 && rows['echo two'] === 1 && rows['Three steps taken.'] === 0,
      20_000,
      'the fork’s chat',
    );
    expect(history).toEqual({ 'echo one': 1, 'echo two': 1, 'echo three': 0, 'Three steps taken.': 0 });
    // No painted frame of the fork's chat showed the step without the one before it.
    const frames = await page.evaluate(() => (window as unknown as { shownFrames: FrameSample[] }).shownFrames);
    const forkFrames = frames.filter((frame) => frame.path.endsWith(forkId) && frame.rows['echo two'] === 1);
    expect(forkFrames.length).toBeGreaterThan(0);
    expect(forkFrames.filter((frame) => frame.rows['echo one'] !== 1)).toEqual([]);
    // The files of then: a.txt and b.txt, not yet c.txt.
    await chooseMenuItem(page, 'Window', 'Changes');
    const changed = page.getByRole('list', { name: 'Changed files' }).locator('summary');
    await waitFor(
      async () => (await changed.allInnerTexts()).map((text) => text.trim()),
      (files) => files.some((file) => file.includes('b.txt')),
      20_000,
      'the fork’s changes',
    );
    const files = (await changed.allInnerTexts()).join('\n');
    expect(files).toContain('a.txt');
    expect(files).not.toContain('c.txt');

    // The original is untouched and names its fork.
    const original = await (await fetch(`${server.url}/api/conversations/${originalId}`)).json();
    expect(original).toMatchObject({ status: 'RUNNING', title: 'Three files' });
    const forks = await (await fetch(`${server.url}/api/conversations?forked_from=${originalId}`)).json();
    expect((forks as { results: { conversation_id: string }[] }).results.map((c) => c.conversation_id)).toEqual([
      forkId,
    ]);
    await page.close();
  }, 120_000);

  it('edits and retries the user’s message from the keyboard: the fork starts with the edited text', async () => {
    const { server, browser } = suite;
    const list = await (await fetch(`${server.url}/api/conversations`)).json();
    const originalId = (list as { results: { conversation_id: string; title: string }[] }).results.find(
      (c) => c.title === 'Three files',
    )?.conversation_id;
    llm.enqueue(
      reply.text('One file', { when: withoutTools }),
      reply.toolCall('finish', { message: 'Only one step now.', task_completed: 'true' }, { when: withTools }),
    );
    const page = await openPage(browser);
    await page.goto(`${server.url}/experiment/conversations/${originalId}`);
    const message = chatRow(page, 'Take three steps');
    await message.locator('[tabindex="0"]').first().focus();
    await page.keyboard.press('e');
    const editor = page.getByRole('textbox', { name: 'Edit your message' });
    expect(await editor.inputValue()).toBe('Take three steps');
    await editor.fill('Take one step');
    await editor.press('Enter');
    await page.waitForURL((url) => !url.pathname.endsWith(originalId ?? ''), { timeout: 30_000 });
    await chatRow(page, 'Only one step now.').waitFor({ timeout: 30_000 });
    expect(await chatRow(page, 'Take one step').count()).toBe(1);
    expect(await chatRow(page, 'Take three steps').count()).toBe(0);
    expect(await chatRow(page, 'echo one').count()).toBe(0);
  }, 120_000);
});
