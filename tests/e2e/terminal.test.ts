import { afterEach, describe, expect, it } from 'vitest';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { waitFor } from '../support/conversations.ts';
import { browserSuite, createOssConversation, watchPageErrors } from '../support/browser-suite.ts';
import { chooseMenuItem, tabButton, terminalLines, typeInTerminal } from '../support/workspace-page.ts';
import type { Page } from 'playwright-core';

// The Terminal tab as a person uses it: a real shell of their own in the conversation's
// sandbox (a REPL answers at once, Ctrl+C interrupts, Tab completes, history comes back with
// the Up arrow), more of them on demand, still there with what they showed after a reload.

let pageErrors: string[] = [];
afterEach(() => {
  const errors = pageErrors;
  pageErrors = [];
  expect(errors).toEqual([]);
});

const shows = (page: Page, done: (lines: string[]) => boolean, what: string, timeoutMs = 10_000) =>
  waitFor(() => terminalLines(page), done, timeoutMs, what);
const lastLine = (lines: string[]) => lines.filter((line) => line !== '').at(-1) ?? '';

describe.skipIf(browserMissing())('the Terminal tab in the browser', () => {
  const suite = browserSuite({ mode: 'oss' });

  it('is a real terminal: a REPL, Ctrl+C, history, completion, several of them, kept across a reload', async () => {
    const { server, browser } = suite;
    const conversationId = await createOssConversation(server);
    const page = await browser.newPage();
    watchPageErrors(page, pageErrors);
    await page.goto(`${server.url}/experiment/conversations/${conversationId}`);
    await chooseMenuItem(page, 'Window', 'Terminal');
    await tabButton(page, 'Terminal 1').waitFor({ timeout: 30_000 });
    await shows(page, (lines) => lastLine(lines).endsWith('$'), 'the first prompt', 30_000);

    // Python's prompt comes at once, and it answers.
    const started = performance.now();
    await typeInTerminal(page, 'python3 -q');
    await shows(page, (lines) => lastLine(lines) === '>>>', 'the Python prompt');
    expect(performance.now() - started).toBeLessThan(5000);
    await typeInTerminal(page, 'print(6 * 7)');
    await shows(page, (lines) => lines.includes('42'), 'the answer');
    await page.keyboard.press('Control+D');
    await shows(page, (lines) => lastLine(lines).endsWith('$'), 'the shell prompt again');

    // Ctrl+C interrupts what runs; the Up arrow brings the last command back.
    await typeInTerminal(page, 'sleep 300; echo not-interrupted');
    await page.keyboard.press('Control+C');
    await shows(page, (lines) => lines.some((line) => line.endsWith('^C')) && lastLine(lines).endsWith('$'), 'Ctrl+C');
    expect(await terminalLines(page)).not.toContain('not-interrupted');
    await typeInTerminal(page, 'echo remembered-$((40+2))');
    await shows(page, (lines) => lines.includes('remembered-42'), 'the echo');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await shows(page, (lines) => lines.filter((line) => line === 'remembered-42').length === 2, 'the command again');
    // Tab completes a file name.
    await typeInTerminal(page, 'touch completion-target.txt');
    await typeInTerminal(page, 'ls completion-tar', false);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await shows(page, (lines) => lines.includes('completion-target.txt'), 'the completed name');

    // A second terminal is a shell of its own.
    await page.getByRole('button', { name: 'New terminal' }).click();
    await tabButton(page, 'Terminal 2').waitFor();
    await shows(page, (lines) => lastLine(lines).endsWith('$'), 'the second prompt', 30_000);
    expect(await terminalLines(page)).not.toContain('remembered-42');
    await typeInTerminal(page, 'echo second-$((1+1))');
    await shows(page, (lines) => lines.includes('second-2'), 'the second terminal');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // After a reload both are there, the first showing what it showed.
    await page.reload();
    await chooseMenuItem(page, 'Window', 'Terminal');
    await tabButton(page, 'Terminal 2').waitFor({ timeout: 30_000 });
    await tabButton(page, 'Terminal 1').click();
    await shows(page, (lines) => lines.includes('remembered-42'), 'the first terminal’s screen again');
    // Closing one ends it.
    await page.getByRole('button', { name: 'Close Terminal 1' }).click();
    // The other one is the first now, and shows its own screen.
    await tabButton(page, 'Terminal 2').waitFor({ state: 'detached' });
    await shows(page, (lines) => lines.includes('second-2') && !lines.includes('remembered-42'), 'the one left');
    await waitFor(
      async () =>
        (await (await fetch(`${server.url}/api/conversations/${conversationId}/terminals`)).json()) as {
          terminals: unknown[];
        },
      (listed) => listed.terminals.length === 1,
      10_000,
      'one terminal left',
    );
    await page.close();
  });
});
