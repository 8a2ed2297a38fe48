import { staticClosure } from '../../server/http/page-preloads.ts';
import { describe, expect, it } from 'vitest';
import {
  BUNDLE_BUDGETS_KB,
  firstLoadKeys,
  firstLoadSizes,
  readManifest,
  sourcesOf,
  workspaceRouteKeys,
} from '../support/build-manifest.ts';

// What pages download first, in the production build the browser tests run against: a page's
// code stays behind its lazy route, and the workspace's first frame draws the chat without the
// layout library or any tab, and each first download stays within its budget (bench/bundle-size.ts
// records the sizes).

const manifest = readManifest();
const modulesOf = (keys: string[]) => sourcesOf(staticClosure(manifest, keys));
/** Components and styles of features other than the shell's: a route's eager part may read a plain helper (a search parser), never a page. */
const pageCode = (modules: string[], allowed: string[]) =>
  modules.filter(
    (m) => /^src\/features\/[^/]+\/.*(\.tsx|\.css\.ts)$/.test(m) && !allowed.includes(m.split('/')[2] ?? ''),
  );
const packagesOf = (modules: string[]) =>
  new Set(
    modules
      .filter((m) => m.startsWith('node_modules/'))
      .map((m) =>
        m
          .split('/')
          .slice(1, m.split('/')[1]?.startsWith('@') ? 3 : 2)
          .join('/'),
      ),
  );
const LAZY_LIBRARIES = [
  'flexlayout-react',
  '@xterm/xterm',
  '@codemirror/view',
  '@codemirror/merge',
  'marked',
  'dompurify',
  'sonner',
  'libphonenumber-js',
  'i18n-iso-countries',
  // Only forms have checkboxes.
  '@radix-ui/react-checkbox',
];

describe('the first download of the production build', () => {
  it('of any page holds the shell and the session, and no page reached through a lazy route', () => {
    const modules = modulesOf(firstLoadKeys(manifest));
    expect(modules).toContain('src/features/shell/AppShell.tsx');
    expect(pageCode(modules, ['shell', 'auth'])).toEqual([]);
    const packages = packagesOf(modules);
    expect(packages.has('react-dom')).toBe(true);
    expect(LAZY_LIBRARIES.filter((name) => packages.has(name))).toEqual([]);
  });

  it('stays within its budget: landing, entry, and the workspace with its chat (JavaScript gzip)', () => {
    const sizes = firstLoadSizes();
    const kB = (bytes: number) => bytes / 1024;
    expect(kB(sizes.landing.js)).toBeLessThanOrEqual(BUNDLE_BUDGETS_KB.landing);
    expect(kB(sizes.entry.js)).toBeLessThanOrEqual(BUNDLE_BUDGETS_KB.entry);
    expect(kB(sizes.workspaceWithChat.js)).toBeLessThanOrEqual(BUNDLE_BUDGETS_KB.workspaceWithChat);
    // Each is a real download, not an empty measurement of a renamed entry.
    expect(Math.min(sizes.landing.js, sizes.entry.js, sizes.workspaceWithChat.js)).toBeGreaterThan(1024);
  });

  it('of the workspace holds its chat, and neither the layout library nor a tab', () => {
    const modules = modulesOf(workspaceRouteKeys(manifest, true));
    expect(modules.some((m) => m.startsWith('src/features/chat/'))).toBe(true);
    expect(pageCode(modules, ['shell', 'auth', 'chat', 'conversations', 'workspace'])).toEqual([]);
    expect(modules.filter((m) => m.startsWith('src/features/tabs/') || m.endsWith('LayoutView.tsx'))).toEqual([]);
    expect(LAZY_LIBRARIES.filter((name) => packagesOf(modules).has(name))).toEqual([]);
  });
});
