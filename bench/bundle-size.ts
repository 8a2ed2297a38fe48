import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchResult } from './result.ts';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Bytes a first visit downloads before the page runs: the entry's scripts, their static
 * imports and stylesheets as index.html links them, gzip-compressed (lazy routes excluded).
 */
export function benchEntryBundle(): BenchResult[] {
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('vite build failed');
  const dist = path.join(root, 'dist');
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const linked = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1] ?? '');
  const gz = (ext: string) => linked.filter((f) => f.endsWith(ext)).reduce((sum, f) => sum + gzipSync(fs.readFileSync(path.join(dist, f))).length, 0);
  const name = 'Entry (first load of any route, lazy routes excluded)';
  return [
    { name, metric: 'JavaScript gzip', value: Math.round(gz('.js') / 1024), unit: 'kB' },
    { name, metric: 'CSS gzip', value: Math.round(gz('.css') / 1024), unit: 'kB' },
  ];
}
