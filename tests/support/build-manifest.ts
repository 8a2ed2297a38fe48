import fs from 'node:fs';
import path from 'node:path';
import { FALLBACK_LANGUAGE, FIRST_LOAD_NAMESPACES } from '../../src/app/i18n.ts';

// What a page of the production build in dist/ downloads first, read from Vite's manifest:
// the chunks a set of entries imports statically (lazy imports excluded).

export const root = path.resolve(import.meta.dirname, '..', '..');
export const dist = path.join(root, 'dist');
type Manifest = Record<string, { file: string; imports?: string[]; css?: string[] }>;

export function readManifest(name = 'manifest.json'): Manifest {
  return JSON.parse(fs.readFileSync(path.join(dist, '.vite', name), 'utf8')) as Manifest;
}

function keyOf(manifest: Manifest, fragment: string): string {
  const found = Object.keys(manifest).find((k) => k.includes(fragment));
  if (!found) throw new Error(`no chunk for ${fragment} in the build manifest`);
  return found;
}

/** The files (scripts and stylesheets) that the entries with these keys load statically. */
export function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    manifest[key].imports?.forEach(visit);
  };
  keys.forEach(visit);
  return [...new Set([...seen].flatMap((k) => [manifest[k]?.file ?? '', ...(manifest[k]?.css ?? [])]))];
}

/** Any route's first load: the page, and the texts of the first-load namespaces (each a chunk) the first render waits for. */
export function firstLoadKeys(manifest: Manifest): string[] {
  return [
    'index.html',
    ...FIRST_LOAD_NAMESPACES.map((namespace) => keyOf(manifest, `locales/${FALLBACK_LANGUAGE}/${namespace}.json`)),
  ];
}

/** The workspace route's first load (inside the sidebar layout, whose component is split off too), with or without its chat panel. */
export function workspaceRouteKeys(manifest: Manifest, withChat: boolean): string[] {
  return [
    ...firstLoadKeys(manifest),
    keyOf(manifest, 'src/routes/_sidebar.tsx?tsr-split=component'),
    keyOf(manifest, 'experiment.conversations.$conversationId.tsx?tsr-split=component'),
    ...(withChat ? [keyOf(manifest, 'src/features/chat/index.ts')] : []),
  ];
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
