import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { launchBrowser, type Browser } from './browser.ts';
import type { FakeLlm } from './fake-llm/index.ts';
import { startServer, type RunningServer } from './server.ts';
import { TOKEN_KEY } from '../../src/api/token-store.ts';

/**
 * What a browser test file runs against: a real server process (with `llm`, the fake model as
 * its operator model) and Chromium, started before the file's tests and stopped after them.
 * The server is opened at http://localhost:PORT, as the README tells users to (`address` for a file that checks 127.0.0.1).
 * `env` adds to the server's environment, read when the suite starts (after the file's own `beforeAll`).
 * Read `server` and `browser` inside the tests: they exist once `beforeAll` has run.
 */
export function browserSuite(options: {
  mode: 'saas' | 'oss';
  llm?: FakeLlm;
  env?: () => Record<string, string>;
  /** The address the browser opens: the README's (localhost) unless a file checks the other. */
  address?: 'localhost' | '127.0.0.1';
}): {
  server: RunningServer;
  browser: Browser;
} {
  const suite = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    const llm = options.llm && {
      LLM_PROVIDER: 'openai-compatible',
      LLM_BASE_URL: await options.llm.start(),
      LLM_MODEL: options.llm.model,
      LLM_API_KEY: 'x',
    };
    suite.server = await startServer({
      mode: options.mode,
      env: { ...llm, ...options.env?.() },
      address: options.address ?? 'localhost',
    });
    suite.browser = await launchBrowser();
  });
  // A failed test prints what the server refused or failed: a page that shows an error says which call.
  beforeEach((context) => {
    const from = suite.server?.output().length ?? 0;
    context.onTestFailed(() => reportFailedRequests(suite.server?.output().slice(from) ?? ''));
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.destroy();
    await options.llm?.stop();
  });
  return suite;
}

function reportFailedRequests(log: string): void {
  const failed = log.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line) as {
        req?: { method?: string; url?: string };
        res?: { statusCode?: number };
        msg?: string;
        err?: { message?: string };
      };
      if (entry.err) return [`error: ${entry.msg ?? ''} ${entry.err.message ?? ''}`];
      const status = entry.res?.statusCode ?? 0;
      return status >= 400 ? [`${status} ${entry.req?.method ?? ''} ${entry.req?.url ?? ''}`] : [];
    } catch {
      return [];
    }
  });
  if (failed.length > 0)
    console.error(`── the server refused or failed, during the test:\n${failed.slice(-40).join('\n')}`);
}

/**
 * Collects a page's uncaught errors into `errors`, and what its Content-Security-Policy blocked:
 * the policy must allow everything the application does.
 */
export function watchPageErrors(page: Page, errors: string[]): void {
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) errors.push(message.text());
  });
}

/**
 * Keeps `token` where the application reads it (localStorage), set from an answer of the server's
 * origin that runs no application: a tab running one could act on its signed-out start meanwhile.
 */
export async function keepToken(page: Page, serverUrl: string, token: string): Promise<void> {
  await page.goto(`${serverUrl}/api/options/config`);
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [TOKEN_KEY, token] as const);
}

/**
 * Pages whose uncaught errors fail the test that opened them (checked after each test of the
 * file): `openPage(browser)` opens a tab and starts listening.
 */
export function pagesWithoutErrors() {
  let errors: string[] = [];
  let open = new Set<Page>();
  // A failed test prints what its pages showed: a wait that ran out says what was there instead.
  // Each test has its own set: the report runs after afterEach.
  beforeEach((context) => {
    const pages = new Set<Page>();
    open = pages;
    context.onTestFailed(() => reportPages(pages));
  });
  afterEach(() => {
    const seen = errors;
    errors = [];
    expect(seen).toEqual([]);
  });
  return async function openPage(browser: Browser) {
    const page = await browser.newPage();
    open.add(page);
    watchPageErrors(page, errors);
    return page;
  };
}

async function reportPages(pages: Iterable<Page>) {
  for (const page of pages) {
    if (page.isClosed()) continue;
    const text = await page
      .locator('body')
      .innerText({ timeout: 5_000 })
      .catch((error: unknown) => `(unreadable: ${String(error)})`);
    console.error(`── the page at ${page.url()} showed:\n${text.slice(0, 4_000)}`);
  }
}

/** A new empty conversation of a self-hosted server (no sign-in); answers its id. */
export async function createOssConversation(server: RunningServer): Promise<string> {
  const created = await fetch(`${server.url}/api/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (created.status !== 200) throw new Error(`creating a conversation answered ${created.status}`);
  return ((await created.json()) as { conversation_id: string }).conversation_id;
}

/**
 * Makes the page a visitor's: the browser's profile is shared by a file's tests, so what an
 * earlier test signed in or kept (tokens, a chat, a referral) is forgotten first.
 */
export async function forgetEarlierVisits(page: Page, server: RunningServer): Promise<void> {
  await page.goto(`${server.url}/terms`);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
}
