import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { FALLBACK_LANGUAGE, FIRST_LOAD_NAMESPACES } from '../src/app/i18n.ts';
import type { BenchResult } from './result.ts';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
type Manifest = Record<string, { file: string; imports?: string[]; css?: string[] }>;

/** Gzip bytes of the chunks a set of manifest entries loads statically (lazy imports excluded). */
function staticClosure(manifest: Manifest, keys: string[]): { js: number; css: number } {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    manifest[key].imports?.forEach(visit);
  };
  keys.forEach(visit);
  const files = [...seen].flatMap((k) => [manifest[k]?.file ?? '', ...(manifest[k]?.css ?? [])]);
  const gz = (ext: string) =>
    [...new Set(files.filter((f) => f.endsWith(ext)))].reduce(
      (sum, f) => sum + gzipSync(fs.readFileSync(path.join(dist, f))).length,
      0,
    );
  return { js: gz('.js'), css: gz('.css') };
}

const kB = (bytes: number) => Math.round(bytes / 102.4) / 10;

/** First-load sizes of the production build in dist/ (bench/run.ts builds it): the landing page, the entry alone, and the workspace route with its always-visible chat panel. */
export function benchBundles(): BenchResult[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const key = (fragment: string) => {
    const found = Object.keys(manifest).find((k) => k.includes(fragment));
    if (!found) throw new Error(`no chunk for ${fragment} in the build manifest`);
    return found;
  };
  // The first render waits for i18n, which loads the first-load namespaces of the browser's language (here English), each a chunk.
  const firstLoad = [
    'index.html',
    ...FIRST_LOAD_NAMESPACES.map((namespace) => key(`locales/${FALLBACK_LANGUAGE}/${namespace}.json`)),
  ];
  const entry = staticClosure(manifest, firstLoad);
  // The workspace route renders inside the sidebar layout, whose component is split off too.
  const workspaceRoute = [
    ...firstLoad,
    key('src/routes/_sidebar.tsx?tsr-split=component'),
    key('experiment.conversations.$conversationId.tsx?tsr-split=component'),
  ];
  const workspace = staticClosure(manifest, workspaceRoute);
  const withChat = staticClosure(manifest, [...workspaceRoute, key('src/features/chat/index.ts')]);
  // The landing page is prerendered and loads only its island, built apart (scripts/prerender-landing.ts).
  const landingManifest = JSON.parse(
    fs.readFileSync(path.join(dist, '.vite', 'landing-manifest.json'), 'utf8'),
  ) as Manifest;
  const landing = staticClosure(landingManifest, ['src/features/landing/island.ts']);
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
