import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { browserSuite, pagesWithoutErrors } from '../support/browser-suite.ts';
import { waitFor } from '../support/conversations.ts';

const openPage = pagesWithoutErrors();

const figures = (page: Page) =>
  page.locator('[data-count-to]').evaluateAll((elements) => elements.map((e) => e.textContent));

describe.skipIf(browserMissing())('the public site in Chromium', () => {
  const suite = browserSuite({ mode: 'saas', address: '127.0.0.1' });

  it('arrives as HTML with one small script, counts up, dismisses its banner for the page view and leads to the app', async () => {
    const { server, browser } = suite;
    const page = await openPage(browser);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    // The markup is in the document itself: the first paint does not wait for a script.
    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).toContain('Build Software with Natural Language</h1>');
    expect(html).toContain('Build Number: 3');

    await page.goto(`${server.url}/`);
    expect(await page.title()).toBe('Build Software with Natural Language');
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe(
      'Build Software with Natural Language',
    );
    await page.getByRole('heading', { level: 1, name: 'Build Software with Natural Language' }).waitFor();
    // Only the landing page's own script: none of the application's.
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^\/assets\/island-[\w-]+\.js$/);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-count-to]')].every(
        (e) => e.textContent === (e as HTMLElement).dataset.countTo,
      ),
    );
    expect(await figures(page)).toEqual(['10', '99', '24']);
    await page.getByText('Happy Developers').waitFor();
    await page.getByText('Build Number: 3').waitFor();
    expect(await page.locator('#features li').count()).toBe(6);
    expect(await page.locator('figure blockquote').count()).toBe(3);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    const banner = page.getByRole('link', { name: 'Become an affiliate' });
    expect(await banner.getAttribute('href')).toBe('/affiliate');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: 'Learn More' }).click();
    await page.waitForURL('**/#features');
    await page.reload();
    await banner.waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Go to App' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
    await page.close();
  });

  it('has Chromium report what its policy blocks, which the server logs and counts', async () => {
    const { server, browser } = suite;
    const blocked = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return Number(/^atelier_csp_violations_total\{directive="img-src"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const before = await blocked();
    // Without the console check: the browser logs the violation there.
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    // An image over plain http from another host is no source the policy allows.
    await page.evaluate(() => {
      const image = document.createElement('img');
      image.src = 'http://tracker.invalid/pixel.gif';
      document.body.append(image);
    });
    await waitFor(blocked, (count) => count === before + 1, 15_000, 'the report to be counted');
    // The server's log reaches this process through a pipe, possibly after the count.
    const logged = /"blocked":"http:\/\/tracker\.invalid\/pixel\.gif".*the content security policy blocked something/;
    await waitFor(
      async () => server.output(),
      (output) => logged.test(output),
      15_000,
      'the report to be logged',
    );
    await page.close();
  });

  it('is sent in the visitor’s language', async () => {
    const { server } = suite;
    const german = await fetch(`${server.url}/`, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } });
    expect(german.headers.get('vary')).toMatch(/accept-language/i);
    const html = await german.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Build-Nummer: 3');
    const other = await (await fetch(`${server.url}/`, { headers: { 'accept-language': 'ja' } })).text();
    expect(other).toContain('<html lang="en">');
  });

  it('tells crawlers what is public: /robots.txt is a robots file, not the application’s page', async () => {
    const robots = await fetch(`${suite.server.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    const rules = await robots.text();
    expect(rules).toMatch(/^User-agent: \*$/m);
    expect(rules).toMatch(/^Disallow: \/api\/$/m);
    expect(rules).not.toMatch(/^Disallow: \/$/m);
  });
});
