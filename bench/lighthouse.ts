import lighthouse from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM_PATH } from '../tests/support/browser.ts';
import { waitFor } from '../tests/support/conversations.ts';
import { startServer, type RunningServer } from '../tests/support/server.ts';
import type { BenchResult } from './result.ts';
import { quantile } from './stats.ts';

/** Performance scores swing on a shared machine: each page is audited this often and the median kept. */
const RUNS = 3;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TARGET = '≥ 90';

interface Audit {
  scores: Record<(typeof CATEGORIES)[number], number>;
  totalBlockingTime: number;
  /** Audits that did not pass, for the console: what to fix next. */
  failing: string[];
}

/** One Lighthouse run (its default: the mobile preset) in a new tab of `browser`, with a cold cache. */
async function audit(browser: Browser, url: string): Promise<Audit> {
  const page = await browser.newPage();
  try {
    const result = await lighthouse(url, { onlyCategories: [...CATEGORIES], logLevel: 'error' }, undefined, page);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
    const scores = Object.fromEntries(
      CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
    ) as Audit['scores'];
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
      .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    return { scores, totalBlockingTime: lhr.audits['total-blocking-time']?.numericValue ?? NaN, failing };
  } finally {
    await page.close();
  }
}

/** A conversation of a few replayed messages in a self-hosted installation, which signs nobody in. */
async function replayedConversation(server: RunningServer): Promise<string> {
  const at = '2026-01-01T00:00:00Z';
  const trajectory = Array.from({ length: 20 }, (_, id) => ({
    id,
    timestamp: at,
    source: id % 2 ? 'agent' : 'user',
    action: 'message',
    args: { content: `message ${id}: ${'words '.repeat(10 + id)}` },
  }));
  const created = await fetch(`${server.url}/api/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ replay_json: JSON.stringify(trajectory) }),
  });
  if (!created.ok) throw new Error(`creating the conversation answered ${created.status}: ${await created.text()}`);
  const { conversation_id: id } = (await created.json()) as { conversation_id: string };
  await waitFor(
    async () => (await (await fetch(`${server.url}/api/conversations/${id}`)).json()) as { status: string },
    (c) => c.status !== 'STARTING',
    120_000,
    'the replay to start',
  );
  return id;
}

/**
 * Lighthouse 12 (mobile preset) on the public pages of a hosted installation and on a
 * conversation's workspace: each category's score and the Total Blocking Time, medians of RUNS.
 */
export async function benchLighthouse(): Promise<BenchResult[]> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const rows: BenchResult[] = [];
  const measure = async (name: string, url: string) => {
    const runs: Audit[] = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await audit(browser, url));
    const median = (value: (a: Audit) => number) => quantile(runs.map(value), 0.5);
    const scores = CATEGORIES.map((c) => median((a) => a.scores[c]));
    // Each failing audit once, as the first run that failed it read.
    const failing = [...new Map(runs.flatMap((a) => a.failing).map((f) => [f.split(' ')[0], f])).values()];
    const tbt = Math.round(median((a) => a.totalBlockingTime));
    console.log(`${name}: ${scores.join('/')}, TBT ${tbt} ms; below 90: ${failing.join(', ') || 'none'}`);
    // One row per page: the lowest category against the goal, every category and the blocking time beside it.
    rows.push({
      name: `Lighthouse 12.2.3 mobile, ${name}, median of ${RUNS}`,
      metric: 'lowest category score',
      value: Math.min(...scores),
      unit: `(performance/accessibility/best practices/SEO ${scores.join('/')}; Total Blocking Time ${tbt} ms)`,
      target: TARGET,
    });
  };
  try {
    const hosted = await startServer({ mode: 'saas' });
    try {
      await measure('landing /', `${hosted.url}/`);
      await measure('signed-out home /dashboard', `${hosted.url}/dashboard`);
      await measure('/affiliate', `${hosted.url}/affiliate`);
    } finally {
      await hosted.destroy();
    }
    const selfHosted = await startServer({ mode: 'oss' });
    try {
      const id = await replayedConversation(selfHosted);
      await measure('workspace /conversations/:id (self-hosted)', `${selfHosted.url}/conversations/${id}`);
    } finally {
      await selfHosted.destroy();
    }
  } finally {
    await browser.close();
  }
  return rows;
}
