import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SnapshotClient } from './snapshot-client.ts';

// Node that cannot start one of its threads at startup (its workspace at the process limit)
// waits for it forever. The snapshot process must not hold a step for as long as it would.

const UID = 1_234_567;
const isRoot = process.getuid?.() === 0;
const workspaceDir = mkdtempSync(path.join(tmpdir(), 'atelier-snapshot-client-'));

afterAll(() => rmSync(workspaceDir, { recursive: true, force: true }));

/** A client whose process runs as a user of its own, allowed `processes` processes and threads. */
function clientAllowing(processes: number): SnapshotClient {
  return new SnapshotClient({
    workspaceDir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workspaceDir },
    wrap: (argv) => [
      'prlimit',
      `--nproc=${processes}`,
      'setpriv',
      `--reuid=${UID}`,
      `--regid=${UID}`,
      '--clear-groups',
      ...argv,
    ],
    startTimeoutMs: 2000,
  });
}

const processesOfUser = () => {
  try {
    return execFileSync('pgrep', ['-u', String(UID)], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

// Only root can run a process as another user with a process limit of its own; CI runs as root.
describe.skipIf(!isRoot)('the snapshot client', () => {
  it('takes snapshots with room for its threads', async () => {
    execFileSync('git', ['init', '-q', '-b', 'main', workspaceDir]);
    execFileSync('chown', ['-R', `${UID}:${UID}`, workspaceDir]);
    const client = clientAllowing(64);
    try {
      expect(await client.snapshot('1', null)).toMatchObject({ branch: 'main', head: null });
    } finally {
      client.close();
    }
  });

  it('gives up on a snapshot process that could not start its threads, and ends it', async () => {
    const client = clientAllowing(4);
    const started = performance.now();
    await expect(client.snapshot('2', null)).rejects.toThrow('The snapshot process did not start');
    expect(performance.now() - started).toBeLessThan(5000);
    await expect.poll(processesOfUser, { timeout: 5000 }).toBe('');
  });
});
