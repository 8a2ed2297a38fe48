import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type Rolldown } from 'vite';
import { BUILD_NUMBER_SLOT } from '../server/http/landing-page.ts';
import { escapeHtml } from '../server/shared/web-text.ts';
import type * as Prerender from '../src/features/landing/prerender.tsx';

// The landing page, prerendered at build time (its first paint must not wait for
// JavaScript, and it must not pay for the application): after the application's build, the page's
// own small script (src/features/landing/island.ts) is built alone, the page's markup is rendered
// in Node once per language, and dist/landing/<language>.html is what the server sends for `/`.

const root = path.resolve(import.meta.dirname, '..');
const LANDING = 'src/features/landing';
const NAMESPACES = ['common', 'landing'];

/** The island's entry chunk and its stylesheets, as built. */
function islandFiles(output: Rolldown.RolldownOutput) {
  const entry = output.output.find((item): item is Rolldown.OutputChunk => item.type === 'chunk' && item.isEntry);
  if (!entry) throw new Error('the landing island build has no entry chunk');
  const css = output.output.filter((item) => item.type === 'asset' && item.fileName.endsWith('.css'));
  return { script: entry.fileName, styles: css.map((item) => item.fileName) };
}

function page(options: {
  language: string;
  title: string;
  body: string;
  script: string;
  styles: string[];
  themes: { light: string; dark: string };
}) {
  const { language, title, body, script, styles, themes } = options;
  // Chosen before the first paint, so a dark-mode visitor never sees the light page flash.
  const theme = `document.documentElement.className=matchMedia('(prefers-color-scheme: dark)').matches?${JSON.stringify(themes.dark)}:${JSON.stringify(themes.light)}`;
  return `<!doctype html>
<html lang="${language}">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>${escapeHtml(title)}</title>
    <meta name="description" content="${escapeHtml(title)}" />
    <script>${theme}</script>
${styles.map((file) => `    <link rel="stylesheet" href="/${file}" />`).join('\n')}
    <script type="module" src="/${script}"></script>
  </head>
  <body>${body}</body>
</html>
`;
}

export function prerenderLanding(): Plugin {
  let outDir = '';
  return {
    name: 'atelier:prerender-landing',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const island = (await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [vanillaExtractPlugin()],
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          manifest: '.vite/landing-manifest.json',
          rolldownOptions: { input: path.join(root, LANDING, 'island.ts') },
        },
      })) as Rolldown.RolldownOutput;
      const ssrDir = path.join(root, 'node_modules', '.cache', 'atelier-landing');
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [react(), vanillaExtractPlugin()],
        build: {
          ssr: path.join(root, LANDING, 'prerender.tsx'),
          outDir: ssrDir,
          emptyOutDir: true,
          copyPublicDir: false,
        },
      });
      const rendering = (await import(pathToFileURL(path.join(ssrDir, 'prerender.js')).href)) as typeof Prerender;
      const { script, styles } = islandFiles(island);
      const languages = fs
        .readdirSync(path.join(root, 'locales'), { withFileTypes: true })
        .filter((e) => e.isDirectory());
      fs.mkdirSync(path.join(outDir, 'landing'), { recursive: true });
      for (const { name: language } of languages) {
        // English is the fallback for any text a language lacks.
        const resources = { en: texts('en'), [language]: texts(language) };
        const { body, title } = await rendering.renderLanding(language, resources, BUILD_NUMBER_SLOT);
        fs.writeFileSync(
          path.join(outDir, 'landing', `${language}.html`),
          page({ language, title, body, script, styles, themes: rendering.themes }),
        );
      }
    },
  };
}

/** The page's namespaces in one language, as i18next resources. */
function texts(language: string) {
  const read = (ns: string) => JSON.parse(fs.readFileSync(path.join(root, 'locales', language, `${ns}.json`), 'utf8'));
  return Object.fromEntries(NAMESPACES.map((ns) => [ns, read(ns)]));
}
