import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxAvailable } from '../support/sandbox.ts';

// A server that is not root (a self-hoster's service user) cannot switch user: bubblewrap runs
// as the server's user in a user namespace of its own. The sandbox must hold there too. The
// test runs a runtime as an unprivileged user (uid 4321), which needs root to start it and a
// checkout every user may read (CI's and this project's machines).

const root = path.resolve(import.meta.dirname, '..', '..');
const UID = 4321;

/** Whether another user can read the checkout: every directory above it passable by all. */
function readableByOthers(dir: string): boolean {
  for (let current = dir; ; current = path.dirname(current)) {
    if ((fs.statSync(current).mode & 0o005) !== 0o005) return false;
    if (current === path.dirname(current)) return true;
  }
}

const runnable = sandboxAvailable && process.getuid?.() === 0 && readableByOthers(root);

describe.skipIf(!runnable)('the sandbox of a server that is not root', { timeout: 120_000 }, () => {
  it('runs as the server’s user without a capability, refuses namespaces, shows nothing of the data directory', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-not-root-'));
    fs.chownSync(home, UID, UID);
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        'setpriv',
        [
          `--reuid=${UID}`,
          `--regid=${UID}`,
          '--clear-groups',
          '--',
          path.join(root, 'node_modules/.bin/tsx'),
          path.join(root, 'tests/security/support/not-root-probe.ts'),
        ],
        { cwd: home, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: home }, timeout: 100_000 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    fs.rmSync(home, { recursive: true, force: true });
    const answers = JSON.parse(output.trim().split('\n').at(-1) as string) as Record<string, string | number | boolean>;
    expect(answers.sandboxed).toBe(true);
    expect(answers.serverUid).toBe(UID);
    const status = String(answers.status);
    expect(status.split('\n')[0]).toBe(String(UID));
    for (const field of ['CapEff', 'CapPrm', 'CapBnd']) expect(status).toMatch(new RegExp(`${field}:\\s+0+\\s`));
    expect(status).toMatch(/NoNewPrivs:\s+1/);
    expect(status).toMatch(/Seccomp:\s+2/);
    for (const attack of ['unshare', 'secret', 'other']) expect(answers[attack], attack).not.toContain('ESCAPED');
    expect(answers.write).toBe('mine');
    expect(answers.serverWrite).toBe('x');
  });
});
