import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectBwrap } from './sandbox.ts';
import { processesWith, tempRuntime, type TempRuntime } from './test-helpers.ts';

/** Polls until `check` holds: setsid forks before it runs its command, so that process appears a moment later. */
async function eventually(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let temp: TempRuntime;

beforeAll(async () => {
  temp = await tempRuntime({ portRange: [47000, 47999] });
});

afterAll(async () => {
  await temp.cleanup();
});

describe('LocalRuntime', () => {
  it('refuses conversation ids that are not plain names', async () => {
    for (const id of ['../escape', 'a/b', '.homes', '', 'x y']) await expect(temp.runtime.start(id)).rejects.toThrow(/Invalid conversation id/);
  });

  it('returns the running session to concurrent and later starts', async () => {
    const [a, b] = await Promise.all([temp.runtime.start('same'), temp.runtime.start('same')]);
    expect(a).toBe(b);
    expect(temp.runtime.get('same')).toBe(a);
    await expect(access(path.join(a.workspaceDir, '.git'))).resolves.toBeUndefined();
    await temp.runtime.remove('same');
  });

  it('reserves distinct ports in the range for each session', async () => {
    const one = await temp.runtime.start('ports-one');
    const two = await temp.runtime.start('ports-two');
    const all = [...one.ports, ...two.ports];
    expect(new Set(all).size).toBe(4);
    for (const port of all) expect(port).toBeGreaterThanOrEqual(47000);
    for (const port of all) expect(port).toBeLessThanOrEqual(47999);
    await one.stop();
    await two.stop();
  });

  it('stop kills every process the session started and start again keeps the files', async () => {
    const session = await temp.runtime.start('restart');
    await session.writeFile('kept.txt', 'still here');
    // A background job and one that left the shell's session: neither may outlive stop().
    await session.runCommand({ command: 'sleep 3217 & setsid sleep 3218 & disown -a' });
    await eventually(() => processesWith('sleep 3217').length === 1 && processesWith('sleep 3218').length === 1);
    await session.stop();
    expect(temp.runtime.get('restart')).toBeUndefined();
    expect(processesWith('sleep 3217')).toEqual([]);
    expect(processesWith('sleep 3218')).toEqual([]);
    await expect(session.runCommand({ command: 'true' })).rejects.toThrow(/stopped/);

    const again = await temp.runtime.start('restart');
    expect(again).not.toBe(session);
    await expect(again.runCommand({ command: 'cat kept.txt' })).resolves.toMatchObject({ output: 'still here', exitCode: 0 });
    expect(again.ports).toEqual(session.ports);
  });

  // Without the pid namespace only the shell's session is known: a process that calls setsid() itself escapes (documented in processes.ts).
  it('without the sandbox, stop still kills background jobs and their orphans', async () => {
    const unsandboxed = await tempRuntime({ sandbox: 'off' });
    try {
      const session = await unsandboxed.runtime.start('plain');
      expect(session.sandboxed).toBe(false);
      await session.runCommand({ command: 'sleep 3219 & (sleep 3220 &) ; disown -a' });
      await eventually(() => processesWith('sleep 3219').length === 1 && processesWith('sleep 3220').length === 1);
      await session.stop();
      expect([...processesWith('sleep 3219'), ...processesWith('sleep 3220')]).toEqual([]);
    } finally {
      await unsandboxed.cleanup();
    }
  });

  it('remove stops the session and deletes its workspace', async () => {
    const session = await temp.runtime.start('doomed');
    await session.writeFile('x.txt', 'x');
    await temp.runtime.remove('doomed');
    expect(temp.runtime.get('doomed')).toBeUndefined();
    await expect(access(session.workspaceDir)).rejects.toThrow(/ENOENT/);
  });
});

// Skipped only on a developer machine without bubblewrap; in CI a missing sandbox fails.
describe.skipIf(!detectBwrap().path && !process.env.CI)('sandbox', () => {
  it('lets a conversation write its workspace but not read other workspaces or the data directory', async () => {
    const a = await temp.runtime.start('sandbox-a');
    const b = await temp.runtime.start('sandbox-b');
    expect(a.sandboxed).toBe(true);
    await b.writeFile('private.txt', 'b only');
    const dbFile = path.join(temp.dataDir, 'database.db');
    await writeFile(dbFile, 'server secrets');

    await expect(a.runCommand({ command: `cat ${path.join(b.workspaceDir, 'private.txt')}` })).resolves.toMatchObject({ exitCode: 1 });
    await expect(a.runCommand({ command: `cat ${dbFile}` })).resolves.toMatchObject({ exitCode: 1 });
    await expect(a.runCommand({ command: `ls ${temp.rootDir}` })).resolves.toMatchObject({ output: expect.not.stringContaining('sandbox-b') });
    await expect(a.runCommand({ command: 'touch /usr/atelier-escape' })).resolves.toMatchObject({ exitCode: 1 });

    await expect(a.runCommand({ command: 'echo mine > mine.txt && touch ~/home-file && cat mine.txt' })).resolves.toMatchObject({ output: 'mine', exitCode: 0 });
    expect(await a.readFile('mine.txt')).toBe('mine\n');
    await a.runCommand({ command: 'echo a > /tmp/a-only.txt' });
    await expect(b.runCommand({ command: 'cat /tmp/a-only.txt' })).resolves.toMatchObject({ exitCode: 1 });
  });
});
