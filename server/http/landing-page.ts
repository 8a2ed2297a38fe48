import fs from 'node:fs';
import path from 'node:path';
import { escapeHtml, preferredLanguages } from '../shared/web-text.ts';

/** Where the build puts the prerendered landing page, one file per language (scripts/prerender-landing.ts). */
const LANDING_DIR = 'landing';
/** What the build writes where the page shows the build number, which is the server's setting (BUILD_NUMBER). */
export const BUILD_NUMBER_SLOT = '%BUILD_NUMBER%';

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
