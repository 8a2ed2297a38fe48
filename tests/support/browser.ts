import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as Axe from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

// Headless Debian Chromium driven by playwright-core (a Playwright-downloaded browser cannot be
// installed on these machines), and an axe-core accessibility check.

export const CHROMIUM_PATH = '/usr/bin/chromium';
const AXE_SCRIPT = path.resolve(import.meta.dirname, '..', '..', 'node_modules', 'axe-core', 'axe.min.js');

/**
 * True when the browser tests must be skipped because Chromium is missing. With
 * REQUIRE_BROWSER=1 a missing Chromium is an error instead (CI must not skip them silently).
 */
export function browserMissing(): boolean {
  if (fs.existsSync(CHROMIUM_PATH)) return false;
  if (process.env.REQUIRE_BROWSER === '1')
    throw new Error(`REQUIRE_BROWSER=1 but there is no Chromium at ${CHROMIUM_PATH}`);
  return true;
}

export interface Browser {
  context: BrowserContext;
  /** A new tab. */
  newPage(): Promise<Page>;
  /** Closes the browser and deletes its profile. */
  close(): Promise<void>;
}

/** Chromium with a fresh, throw-away profile. */
export async function launchBrowser(): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    // Without the background-networking flags Chromium floods the closed network with connections.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Two CPUs run the server, its sandboxes and Chromium: a wait may take longer than Playwright's
  // 30 s under that load. Below the tests' 60 s limit, so a wait that hangs fails naming itself
  // (and the failed test prints the server's refusals) rather than as the test's timeout.
  context.setDefaultTimeout(45_000);
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

let axeText: string | null = null;
const axeSource = () => (axeText ??= fs.readFileSync(AXE_SCRIPT, 'utf8'));

export type AccessibilityViolation = Pick<Axe.Result, 'id' | 'impact' | 'help'> & { targets: string[] };

/** Runs axe-core on the page as it is now and returns the serious and critical violations. */
export async function seriousAccessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  // Evaluated, not added as a <script>: the page's Content-Security-Policy rightly refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  const violations = await page.evaluate(async () => {
    // Contrast is judged on what stays on screen: a dialog still fading in has text at part opacity.
    // (A spinner's endless animation is not waited for.)
    const ending = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
    const { axe } = window as unknown as { axe: typeof Axe };
    const results = await axe.run(document);
    return results.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      targets: nodes.map((node) => node.target.join(' ')),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
