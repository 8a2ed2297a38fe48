import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BrowserProxy, type BrowserRoute } from './browser-proxy.ts';
import type { BrowserAction, BrowserState } from './types.ts';

const CHROMIUM = '/usr/bin/chromium';
// STACK.md: without the background-networking flags Chromium floods a closed network with connections.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // WebRTC's UDP would bypass the context's proxy (browser-proxy.ts), which decides where pages connect.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];
const TEXT_LIMIT = 20_000;
const NAVIGATION_TIMEOUT_MS = 30_000;
const ACTION_TIMEOUT_MS = 10_000;
/** How long a page may keep loading (a single-page app fetching its data) before it is captured as it is. */
const SETTLE_TIMEOUT_MS = 5_000;

/**
 * One headless Chromium for the whole runtime (a browser process per conversation would
 * cost far more memory), launched on first use and closed when its last conversation
 * lets go; each conversation gets its own context, so cookies and storage stay apart.
 */
export class SharedBrowser {
  private browser: Promise<Browser> | null = null;
  private readonly contexts = new Set<BrowserContext>();
  /** Contexts being created: the browser must not be closed under them. */
  private opening = 0;

  constructor(private readonly executablePath = CHROMIUM) {}

  /** A context whose every connection goes through the forward proxy at `proxyUrl`. */
  async newContext(proxyUrl: string): Promise<BrowserContext> {
    this.opening += 1;
    try {
      if (!this.browser) {
        // Playwright is loaded with the first browser: it costs the server's start half a second.
        const launching = import('playwright-core').then(({ chromium }) =>
          chromium.launch({ executablePath: this.executablePath, args: CHROMIUM_ARGS, headless: true }),
        );
        this.browser = launching;
        const forget = () => {
          if (this.browser === launching) this.browser = null;
        };
        launching.then((browser) => browser.on('disconnected', forget), forget);
      }
      const context = await (
        await this.browser
      ).newContext({ acceptDownloads: false, viewport: { width: 1280, height: 800 }, proxy: { server: proxyUrl } });
      this.contexts.add(context);
      context.on('close', () => this.contexts.delete(context));
      return context;
    } finally {
      this.opening -= 1;
    }
  }

  async release(context: BrowserContext): Promise<void> {
    this.contexts.delete(context);
    await context.close().catch(() => undefined);
    if (this.contexts.size === 0 && this.opening === 0) await this.close();
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close();
  }
}

/** The agent's page may only load web addresses: a file: or chrome: page would read the host outside the sandbox. */
function webAddress(raw: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) || raw === 'about:blank' ? raw : `http://${raw}`;
  const url = new URL(withScheme);
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.href !== 'about:blank')
    throw new Error(`Only http and https addresses can be opened, not ${url.protocol}`);
  return url.href;
}

/** A conversation's page in the shared browser. Actions run one at a time. */
export class BrowserTab {
  private context: BrowserContext | null = null;
  private page: Page | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** Where this conversation's pages may connect, started with its first context. */
  private proxy: Promise<BrowserProxy> | null = null;

  constructor(
    private readonly shared: SharedBrowser,
    private readonly route: BrowserRoute,
  ) {}

  act(action: BrowserAction): Promise<BrowserState> {
    const result = this.queue.then(() => this.run(action));
    this.queue = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    const context = this.context;
    this.context = null;
    this.page = null;
    if (context) await this.shared.release(context);
    const proxy = this.proxy;
    this.proxy = null;
    await (await proxy?.catch(() => null))?.close();
  }

  private async openPage(): Promise<Page> {
    if (this.page && !this.page.isClosed()) return this.page;
    if (!this.context) {
      this.proxy ??= BrowserProxy.start(this.route);
      const context = await this.shared.newContext((await this.proxy).url);
      // The browser may crash or be closed under us: start over on the next action.
      context.on('close', () => {
        if (this.context === context) this.context = this.page = null;
      });
      this.context = context;
    }
    this.page = await this.context.newPage();
    return this.page;
  }

  private async run(action: BrowserAction): Promise<BrowserState> {
    const page = await this.openPage();
    try {
      await this.perform(page, action);
    } catch (error) {
      // Playwright appends a call log to its messages; the first line is what the model needs.
      throw new Error(((error as Error).message.split('\n')[0] ?? 'Browser action failed').trim(), { cause: error });
    }
    await settle(page);
    return this.state(page);
  }

  private async perform(page: Page, action: BrowserAction): Promise<void> {
    switch (action.action) {
      case 'navigate': {
        const address = webAddress(action.url);
        try {
          await page.goto(address, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
        } catch (error) {
          // Chromium tells a refused tunnel as ERR_TUNNEL_CONNECTION_FAILED: the proxy knows why.
          const refusal = (await this.proxy)?.refusalFor(new URL(address).hostname);
          throw refusal ? new Error(refusal, { cause: error }) : error;
        }
        break;
      }
      case 'click':
        await page.click(action.selector, { timeout: ACTION_TIMEOUT_MS });
        // A click may start a navigation; give it the chance to finish before the screenshot.
        await page.waitForLoadState('load', { timeout: ACTION_TIMEOUT_MS }).catch(() => undefined);
        break;
      case 'type':
        await page.fill(action.selector, action.text, { timeout: ACTION_TIMEOUT_MS });
        break;
      case 'scroll':
        await page.evaluate(([dx, dy]) => window.scrollBy({ left: dx, top: dy, behavior: 'instant' }), [
          action.dx ?? 0,
          action.dy,
        ] as const);
        break;
      case 'screenshot':
        break;
    }
  }

  private async state(page: Page): Promise<BrowserState> {
    const [title, screenshot, text] = await Promise.all([
      page.title(),
      page.screenshot({ type: 'png' }),
      page.evaluate(() => document.body?.innerText ?? ''),
    ]);
    return {
      url: page.url(),
      title,
      screenshot: `data:image/png;base64,${screenshot.toString('base64')}`,
      text: text.slice(0, TEXT_LIMIT),
    };
  }
}

/**
 * Waits until the page has settled: no network request for a moment (a single-page app has
 * fetched what it renders) and two frames painted after that, so the screenshot shows what a
 * person would see rather than the blank page of the first load event.
 */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: SETTLE_TIMEOUT_MS }).catch(() => undefined);
  await page
    .evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))
    .catch(() => undefined);
}
