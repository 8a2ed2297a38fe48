import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findOnPath } from './executables.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './ports.ts';
import { tempRuntime, type TempRuntime } from '../../tests/support/temp-runtime.ts';

/** bubblewrap's path where it can sandbox here. */
const bwrap = findOnPath('bwrap');

// Local deployments: an app unpacked apart from any workspace, run sandboxed on its port, brought
// back after a restart, and removed with its files.

let temp: TempRuntime;
beforeAll(async () => {
  temp = await tempRuntime({ portRange: [28600, 28699] });
});
afterAll(async () => {
  await temp.cleanup();
});

/** A gzipped tar of the given files. */
async function archiveOf(files: Record<string, string>): Promise<Uint8Array> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'atelier-app-'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  const archive = execFileSync('tar', ['-czf', '-', '-C', dir, '.']);
  await rm(dir, { recursive: true, force: true });
  return archive;
}

const SERVER = `require('node:http').createServer((q, s) => s.end('hello from ' + process.env.PORT + ' as ' + process.env.HOME)).listen(Number(process.env.PORT));`;

describe('hosted apps', () => {
  it('unpacks and starts the app on its port, brings it back after a restart, and removes it with its files', async () => {
    const port = await freePort();
    const apps = temp.runtime.apps;
    const app = await apps.host({
      key: 'conv-web-1',
      archive: await archiveOf({ 'server.js': SERVER }),
      start: 'node server.js',
      port,
    });
    const answer = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(answer).toMatch(new RegExp(`^hello from ${port} as .*conv-web-1/home$`));
    await app.stop();
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();

    // After a restart of the server, the kept files and start command bring it back.
    await apps.restart('conv-web-1');
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toMatch(/^hello from/);
    await apps.remove('conv-web-1');
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    expect(existsSync(path.join(temp.rootDir, '.apps', 'conv-web-1'))).toBe(false);
  }, 60_000);

  it('says why when the app exits before it answers, and leaves nothing running', async () => {
    const port = await freePort();
    const failed = temp.runtime.apps.host({
      key: 'conv-broken',
      archive: await archiveOf({ 'server.js': "console.error('missing DATABASE_URL'); process.exit(3);" }),
      start: 'node server.js',
      port,
    });
    await expect(failed).rejects.toThrow(
      /^The app exited \(code 3\) before it answered on port \d+:\nmissing DATABASE_URL$/,
    );
    await temp.runtime.apps.remove('conv-broken');
  }, 60_000);

  // Without bubblewrap (a developer's machine) apps run unsandboxed; CI always has it.
  it.skipIf(!bwrap && !process.env.CI)(
    'keeps an app from reading the other workspaces and the server’s data',
    async () => {
      expect(await temp.runtime.isSandboxed()).toBe(true);
      const port = await freePort();
      const probe = `const fs = require('node:fs'); require('node:http').createServer((q, s) => { let seen; try { seen = fs.readdirSync(${JSON.stringify(temp.rootDir)}).join(','); } catch (e) { seen = e.code; } s.end(seen); }).listen(Number(process.env.PORT));`;
      await temp.runtime.apps.host({
        key: 'conv-probe',
        archive: await archiveOf({ 'server.js': probe }),
        start: 'node server.js',
        port,
      });
      // The workspaces' root is an empty tmpfs inside the sandbox, save the app's own directory.
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('.apps');
      await temp.runtime.apps.remove('conv-probe');
    },
    60_000,
  );
});
