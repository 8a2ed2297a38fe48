import { BUNDLE_BUDGETS_KB, firstLoadSizes } from '../tests/support/build-manifest.ts';
import type { BenchResult } from './result.ts';

const kB = (bytes: number) => Math.round(bytes / 102.4) / 10;

/** First-load sizes of the production build in dist/ (bench/run.ts builds it); the budgets are checked by npm test too. */
export function benchBundles(): BenchResult[] {
  const sizes = firstLoadSizes();
  const landing = 'Landing page / (prerendered)';
  const entry = 'Entry (first load of any route, lazy routes excluded)';
  return [
    {
      name: landing,
      metric: 'JavaScript gzip',
      value: kB(sizes.landing.js),
      unit: 'kB',
      target: `≤ ${BUNDLE_BUDGETS_KB.landing} kB`,
    },
    { name: landing, metric: 'CSS gzip', value: kB(sizes.landing.css), unit: 'kB' },
    { name: landing, metric: 'HTML gzip', value: kB(sizes.landing.html), unit: 'kB' },
    {
      name: entry,
      metric: 'JavaScript gzip',
      value: kB(sizes.entry.js),
      unit: 'kB',
      target: `≤ ${BUNDLE_BUDGETS_KB.entry} kB`,
    },
    { name: entry, metric: 'CSS gzip', value: kB(sizes.entry.css), unit: 'kB' },
    {
      name: 'Workspace route (entry + route, tabs lazy)',
      metric: 'JavaScript gzip',
      value: kB(sizes.workspace.js),
      unit: 'kB',
    },
    {
      name: 'Workspace route with the chat panel (pm layout)',
      metric: 'JavaScript gzip',
      value: kB(sizes.workspaceWithChat.js),
      unit: 'kB',
      target: `≤ ${BUNDLE_BUDGETS_KB.workspaceWithChat} kB`,
    },
  ];
}
