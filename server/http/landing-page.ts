import fs from 'node:fs';
import path from 'node:path';

/** Where the build puts the prerendered landing page, one file per language (scripts/prerender-landing.ts). */
const LANDING_DIR = 'landing';
/** What the build writes where the page shows the build number, which is the server's setting (BUILD_NUMBER). */
export const BUILD_NUMBER_SLOT = '%BUILD_NUMBER%';

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** The languages of an Accept-Language header, most wanted first ('de-AT' counts as 'de'). */
export function preferredLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { language: tag.toLowerCase().split('-')[0] ?? '', weight: q ? Number(q.slice(2)) : 1, index };
    })
    .filter(({ language, weight }) => language && language !== '*' && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map(({ language }) => language);
}

/**
 * The landing page for a visitor: the built pages are read once, with the build number filled
 * in; each request gets the visitor's first built language, else English. Null when the build has
 * no landing page.
 */
export function landingPages(webRoot: string, buildNumber: string) {
  const dir = path.join(webRoot, LANDING_DIR);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((file) => file.endsWith('.html')) : [];
  const pages = new Map(
    files.map((file) => [
      file.slice(0, -'.html'.length),
      fs.readFileSync(path.join(dir, file), 'utf8').replaceAll(BUILD_NUMBER_SLOT, escapeHtml(buildNumber)),
    ]),
  );
  const english = pages.get('en');
  if (english === undefined) return null;
  return (acceptLanguage: string | undefined) => {
    const language = preferredLanguages(acceptLanguage).find((l) => pages.has(l));
    return (language && pages.get(language)) ?? english;
  };
}
