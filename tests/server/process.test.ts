import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { LOG_LEVEL: 'info' } });
});
afterAll(() => server?.destroy());

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the server process', () => {
  it('keeps accounts across a graceful restart', async () => {
    const email = 'restart@acme.example';
    expect(
      (await post(`${server.url}/api/auth/register`, { name: 'Re Start', email, password: 'long enough' })).status,
    ).toBe(200);
    await server.restart();
    const login = await post(`${server.url}/api/auth/login`, { email, password: 'long enough' });
    expect(login.status).toBe(200);
    const lines = server.output().trim().split('\n');
    expect(lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l).msg)).toContain('shutting down');
  });

  it('prints its usage for --help, and refuses an unknown argument, without starting', () => {
    const help = spawnSync(process.execPath, ['scripts/start.mjs', '--help'], { cwd: root, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: node scripts/start.mjs [--build-if-needed]');
    expect(help.stdout).toContain('configuration table');
    const unknown = spawnSync(process.execPath, ['scripts/start.mjs', '--port=80'], { cwd: root, encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Unknown argument: --port=80');
  });

  it('refuses to start with invalid configuration and says which variable is wrong', () => {
    const result = spawnSync(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: { ...process.env, APP_MODE: 'cloud', PORT: 'eighty' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('APP_MODE must be "saas" or "oss"');
    expect(result.stderr).toContain('PORT');
  });
});
