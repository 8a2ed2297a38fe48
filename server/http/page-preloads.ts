import fs from 'node:fs';
import path from 'node:path';
import { FALLBACK_LANGUAGE, FIRST_LOAD_NAMESPACES, pickLanguage } from '../../locales/languages.ts';
import { preferredLanguages } from '../shared/web-text.ts';

/** Vite's build manifest: each source entry's file and what it imports statically. */
export type Manifest = Record<string, { file: string; imports?: string[]; css?: string[] }>;

/** The files (scripts and stylesheets) that the manifest entries with these keys load statically. */
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

/** The texts every first render waits for, each a chunk: the language's and English, the fallback. */
export const firstRenderTexts = (language: string) =>
  [...new Set([FALLBACK_LANGUAGE, language])].flatMap((l) =>
    FIRST_LOAD_NAMESPACES.map((namespace) => `locales/${l}/${namespace}.json`),
  );

const SIDEBAR_CODE = 'src/routes/_sidebar.tsx?tsr-split=component';
/** The workspace route's own code, inside the sidebar layout (whose component is split off too), and its chat panel's. */
export const WORKSPACE_CODE = [
  SIDEBAR_CODE,
  'src/routes/_sidebar/experiment.conversations.$conversationId.tsx?tsr-split=component',
];
export const CHAT_CODE = 'src/features/chat/index.ts';

/** Pages whose route code the browser would find only after running the entry, then the route's first chunk. */
const ROUTE_CODE: { path: RegExp; keys: string[] }[] = [
  { path: /^\/(experiment\/)?conversations\/[^/]+$/, keys: [...WORKSPACE_CODE, CHAT_CODE] },
  { path: /^\/dashboard$/, keys: [SIDEBAR_CODE, 'src/routes/_sidebar/dashboard.tsx?tsr-split=component'] },
];

/**
 * The application's page (index.html) for a path, with what its first render waits for
 * announced in its head — the texts in the visitor's language and, on the workspace and the
 * dashboard, the route's code — which the browser would otherwise find in waves, each after the
 * last had run. Built once per route and language; null without a build manifest.
 */
export function applicationPages(webRoot: string) {
  const manifestFile = path.join(webRoot, '.vite', 'manifest.json');
  const indexFile = path.join(webRoot, 'index.html');
  if (!fs.existsSync(manifestFile) || !fs.existsSync(indexFile)) return null;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  const index = fs.readFileSync(indexFile, 'utf8');
  const announced = new Set(staticClosure(manifest, ['index.html']));
  const pages = new Map<string, string>();
  return (urlPath: string, acceptLanguage: string | undefined): string => {
    const route = ROUTE_CODE.find((r) => r.path.test(urlPath));
    const language = pickLanguage(preferredLanguages(acceptLanguage));
    const key = `${route ? ROUTE_CODE.indexOf(route) : -1}:${language}`;
    let page = pages.get(key);
    if (page === undefined) {
      const files = staticClosure(manifest, [...firstRenderTexts(language), ...(route?.keys ?? [])]);
      const links = files
        .filter((file) => !announced.has(file))
        .map((file) =>
          file.endsWith('.css')
            ? // crossorigin as in the stylesheet link Vite's loader adds: without it the browser fetches the file twice.
              `<link rel="preload" as="style" crossorigin href="/${file}">`
            : `<link rel="modulepreload" crossorigin href="/${file}">`,
        );
      page = index.replace('</head>', `    ${links.join('\n    ')}\n  </head>`);
      pages.set(key, page);
    }
    return page;
  };
}
