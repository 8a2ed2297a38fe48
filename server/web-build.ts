import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Builds the web app into dist/ as `npm start` serves it (`quiet`: warnings only). Always a
 * production build: Vite builds NODE_ENV into the bundle, and under Vitest (NODE_ENV=test) that
 * would be React's development build, with StrictMode's double effects.
 */
export function buildWebApp({ quiet = false }: { quiet?: boolean } = {}): void {
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', ...(quiet ? ['--logLevel', 'warn'] : [])],
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (result.status !== 0) throw new Error('vite build failed');
}
