import { spawnSync } from 'node:child_process';
import path from 'node:path';
import prepareDatabase from './global-setup.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Browser tests run against the built SPA, exactly as `npm start` serves it. */
export default async function setup() {
  await prepareDatabase();
  const build = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    // Vitest sets NODE_ENV=test, which Vite would build into the bundle: React's development build,
    // with StrictMode's double effects, not what `npm start` serves.
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (build.status !== 0) throw new Error('vite build failed');
}
