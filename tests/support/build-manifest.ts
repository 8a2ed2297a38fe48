import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { FALLBACK_LANGUAGE } from '../../locales/languages.ts';
import {
  CHAT_CODE,
  firstRenderTexts,
  staticClosure,
  WORKSPACE_CODE,
  type Manifest,
} from '../../server/http/page-preloads.ts';

// What a page of the production build in dist/ downloads first, read from Vite's manifest:
// the chunks a set of entries imports statically (lazy imports excluded).

export const root = path.resolve(import.meta.dirname, '..', '..');
export const dist = path.join(root, 'dist');

export function readManifest(name = 'manifest.json'): Manifest {
  return JSON.parse(fs.readFileSync(path.join(dist, '.vite', name), 'utf8')) as Manifest;
}

/** The keys, each checked to be in the manifest: a renamed entry must not shrink what is measured. */
function present(manifest: Manifest, keys: string[]): string[] {
  const missing = keys.filter((key) => !manifest[key]);
  if (missing.length > 0) throw new Error(`not in the build manifest: ${missing.join(', ')}`);
  return keys;
}

/** Any route's first load: the page, and the texts of the first-load namespaces (each a chunk) the first render waits for. */
export function firstLoadKeys(manifest: Manifest): string[] {
  return present(manifest, ['index.html', ...firstRenderTexts(FALLBACK_LANGUAGE)]);
}

/** The workspace route's first load, with or without its chat panel: what the server announces in its page (page-preloads.ts). */
export function workspaceRouteKeys(manifest: Manifest, withChat: boolean): string[] {
  return [...firstLoadKeys(manifest), ...present(manifest, [...WORKSPACE_CODE, ...(withChat ? [CHAT_CODE] : [])])];
}

/** The source modules bundled into these scripts (from their source maps), relative to the repository: `node_modules/<package>/…` or `src/…`. */
export function sourcesOf(files: string[]): string[] {
  const sources = files
    // A chunk of the bundler's own code (its runtime) has no map.
    .filter((file) => file.endsWith('.js') && fs.existsSync(path.join(dist, `${file}.map`)))
    .flatMap((file) => {
      const map = JSON.parse(fs.readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] };
      return map.sources.map((source) =>
        path.relative(root, path.resolve(path.dirname(path.join(dist, file)), source)),
      );
    });
  return [...new Set(sources)];
}

/** Gzip bytes of the scripts and stylesheets among these files of dist/. */
function gzipSizes(files: string[]): { js: number; css: number } {
  const gz = (ext: string) =>
    files
      .filter((f) => f.endsWith(ext))
      .reduce((sum, f) => sum + gzipSync(fs.readFileSync(path.join(dist, f))).length, 0);
  return { js: gz('.js'), css: gz('.css') };
}

/**
 * What each page downloads first, gzipped: the landing page (prerendered, only its island,
 * built apart by scripts/prerender-landing.ts), any route's entry, and the workspace route with
 * and without its always-visible chat panel.
 */
export function firstLoadSizes() {
  const manifest = readManifest();
  const landingManifest = readManifest('landing-manifest.json');
  return {
    landing: {
      ...gzipSizes(staticClosure(landingManifest, ['src/features/landing/island.ts'])),
      html: gzipSync(fs.readFileSync(path.join(dist, 'landing', `${FALLBACK_LANGUAGE}.html`))).length,
    },
    entry: gzipSizes(staticClosure(manifest, firstLoadKeys(manifest))),
    workspace: gzipSizes(staticClosure(manifest, workspaceRouteKeys(manifest, false))),
    workspaceWithChat: gzipSizes(staticClosure(manifest, workspaceRouteKeys(manifest, true))),
  };
}

/** The first-load budgets, JavaScript gzip, with headroom over what the build needs today (npm test checks them). */
export const BUNDLE_BUDGETS_KB = { landing: 60, entry: 170, workspaceWithChat: 230 } as const;
