import fs from 'node:fs';
import path from 'node:path';
import { staticClosure } from '../server/http/page-preloads.ts';
import { gzipSync } from 'node:zlib';
import { FALLBACK_LANGUAGE } from '../locales/languages.ts';
import { dist, firstLoadKeys, readManifest, workspaceRouteKeys } from '../tests/support/build-manifest.ts';
import type { BenchResult } from './result.ts';

/** Gzip bytes of the scripts and stylesheets among these files. */
function gzipSizes(files: string[]): { js: number; css: number } {
  const gz = (ext: string) =>
    files
      .filter((f) => f.endsWith(ext))
      .reduce((sum, f) => sum + gzipSync(fs.readFileSync(path.join(dist, f))).length, 0);
  return { js: gz('.js'), css: gz('.css') };
}

const kB = (bytes: number) => Math.round(bytes / 102.4) / 10;

/** First-load sizes of the production build in dist/ (bench/run.ts builds it): the landing page, the entry alone, and the workspace route with its always-visible chat panel. */
export function benchBundles(): BenchResult[] {
  const manifest = readManifest();
  const entry = gzipSizes(staticClosure(manifest, firstLoadKeys(manifest)));
  const workspace = gzipSizes(staticClosure(manifest, workspaceRouteKeys(manifest, false)));
  const withChat = gzipSizes(staticClosure(manifest, workspaceRouteKeys(manifest, true)));
  // The landing page is prerendered and loads only its island, built apart (scripts/prerender-landing.ts).
  const landingManifest = readManifest('landing-manifest.json');
  const landing = gzipSizes(staticClosure(landingManifest, ['src/features/landing/island.ts']));
  const landingHtml = gzipSync(fs.readFileSync(path.join(dist, 'landing', `${FALLBACK_LANGUAGE}.html`))).length;
  return [
    {
      name: 'Landing page / (prerendered)',
      metric: 'JavaScript gzip',
      value: kB(landing.js),
      unit: 'kB',
      target: '≤ 60 kB',
    },
    { name: 'Landing page / (prerendered)', metric: 'CSS gzip', value: kB(landing.css), unit: 'kB' },
    { name: 'Landing page / (prerendered)', metric: 'HTML gzip', value: kB(landingHtml), unit: 'kB' },
    {
      name: 'Entry (first load of any route, lazy routes excluded)',
      metric: 'JavaScript gzip',
      value: kB(entry.js),
      unit: 'kB',
    },
    {
      name: 'Entry (first load of any route, lazy routes excluded)',
      metric: 'CSS gzip',
      value: kB(entry.css),
      unit: 'kB',
    },
    {
      name: 'Workspace route (entry + route, tabs lazy)',
      metric: 'JavaScript gzip',
      value: kB(workspace.js),
      unit: 'kB',
    },
    {
      name: 'Workspace route with the chat panel (pm layout)',
      metric: 'JavaScript gzip',
      value: kB(withChat.js),
      unit: 'kB',
      target: '≤ 200 kB',
    },
  ];
}
