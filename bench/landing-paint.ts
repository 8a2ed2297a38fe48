import { launchBrowser } from '../tests/support/browser.ts';
import { startServer } from '../tests/support/server.ts';
import type { BenchResult } from './result.ts';
import { quantile, round } from './stats.ts';

const LOADS = 15;

/**
 * First contentful paint of the landing page in Chromium, each load with an empty cache, beside
 * the application's own page (/dashboard) measured the same way: the landing page is prerendered
 * HTML, the application paints only after its JavaScript has run.
 */
export async function benchLandingPaint(): Promise<BenchResult[]> {
  const server = await startServer({ mode: 'saas' });
  const browser = await launchBrowser();
  try {
    const paint = async (path: string) => {
      const times: number[] = [];
      for (let i = 0; i < LOADS; i += 1) {
        const page = await browser.newPage();
        const cdp = await browser.context.newCDPSession(page);
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
        const fcp = await page.evaluate(
          () =>
            new Promise<number>((resolve) =>
              new PerformanceObserver((list) => {
                const entry = list.getEntriesByName('first-contentful-paint')[0];
                if (entry) resolve(entry.startTime);
              }).observe({ type: 'paint', buffered: true }),
            ),
        );
        times.push(fcp);
        await page.close();
      }
      return times;
    };
    const landing = await paint('/');
    const app = await paint('/dashboard');
    const row = (name: string, times: number[], target?: string): BenchResult => ({
      name,
      metric: `first contentful paint, median of ${LOADS} cold loads`,
      value: round(quantile(times, 0.5)),
      unit: 'ms',
      ...(target && { target }),
    });
    return [
      row('Landing page / in Chromium (local server)', landing),
      row('Application /dashboard, same conditions', app),
    ];
  } finally {
    await browser.close();
    await server.destroy();
  }
}
