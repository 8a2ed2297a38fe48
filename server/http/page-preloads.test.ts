import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIRST_LOAD_NAMESPACES } from '../../locales/languages.ts';
import { applicationPages, CHAT_CODE, WORKSPACE_CODE, type Manifest } from './page-preloads.ts';

/** A build whose entry imports `shared.js`, with every first-load text and the workspace route's chunks. */
function build() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pages-'));
  fs.mkdirSync(path.join(root, '.vite'));
  const manifest: Manifest = {
    'index.html': { file: 'assets/index.js', imports: ['_shared.js'] },
    '_shared.js': { file: 'assets/shared.js' },
    '_chat-input.js': { file: 'assets/chat-input.js', imports: ['_shared.js'], css: ['assets/chat.css'] },
    [WORKSPACE_CODE[0] as string]: { file: 'assets/sidebar.js', imports: ['_shared.js'] },
    [WORKSPACE_CODE[1] as string]: { file: 'assets/workspace.js' },
    [CHAT_CODE]: { file: 'assets/chat.js', imports: ['_chat-input.js'] },
  };
  for (const language of ['en', 'de'])
    for (const namespace of FIRST_LOAD_NAMESPACES)
      manifest[`locales/${language}/${namespace}.json`] = { file: `assets/${language}-${namespace}.js` };
  fs.writeFileSync(path.join(root, '.vite', 'manifest.json'), JSON.stringify(manifest));
  fs.writeFileSync(path.join(root, 'index.html'), '<html><head><title>A</title></head><body></body></html>');
  return root;
}

const announced = (page: string) => [...page.matchAll(/href="\/assets\/([^"]+)"/g)].map((match) => match[1]);

describe('the application page with what its first render waits for', () => {
  const page = applicationPages(build());

  it('announces the texts of the visitor’s language and English, never what the entry already loads', () => {
    const english = page?.('/settings', 'en-GB,en;q=0.9') ?? '';
    expect(announced(english)).toEqual(FIRST_LOAD_NAMESPACES.map((namespace) => `en-${namespace}.js`));
    expect(english).toContain('<link rel="modulepreload" crossorigin href="/assets/en-common.js">');
    const german = announced(page?.('/settings', 'de-AT, fr;q=0.5') ?? '');
    expect(german).toEqual(
      expect.arrayContaining(
        FIRST_LOAD_NAMESPACES.flatMap((namespace) => [`en-${namespace}.js`, `de-${namespace}.js`]),
      ),
    );
    expect(announced(page?.('/settings', 'ja') ?? '')).toEqual(announced(english));
  });

  it('announces the workspace’s code and its chat’s, with their stylesheets, on a conversation’s page', () => {
    for (const path of ['/experiment/conversations/abc', '/conversations/abc']) {
      const files = announced(page?.(path, undefined) ?? '');
      expect(files).toEqual(
        expect.arrayContaining(['sidebar.js', 'workspace.js', 'chat.js', 'chat-input.js', 'chat.css']),
      );
      expect(files).not.toContain('shared.js');
      expect(page?.(path, undefined)).toContain('<link rel="preload" as="style" crossorigin href="/assets/chat.css">');
    }
    expect(announced(page?.('/experiment/conversations/abc/more', undefined) ?? '')).not.toContain('workspace.js');
  });

  it('keeps the rest of the page, the links closing its head', () => {
    const html = page?.('/', undefined) ?? '';
    expect(html.startsWith('<html><head><title>A</title>')).toBe(true);
    expect(html.endsWith('</head><body></body></html>')).toBe(true);
  });

  it('is absent without a build manifest', () => {
    expect(applicationPages(fs.mkdtempSync(path.join(os.tmpdir(), 'no-build-')))).toBeNull();
  });
});
