import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir, lockHolder } from './data-dir-lock.ts';

const dirs: string[] = [];
const freshDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the data directory lock', () => {
  it('is held once: a second taker is refused until the first releases', () => {
    const dir = freshDir();
    const lock = lockDataDir(dir);
    expect(lockHolder(dir)?.pid).toBe(process.pid);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    lock.release();
    expect(lockHolder(dir)).toBeNull();
    lockDataDir(dir).release();
  });

  it('tells where the holder takes commands', () => {
    const dir = freshDir();
    const lock = lockDataDir(dir);
    lock.advertise('/run/admin.sock');
    expect(lockHolder(dir)).toMatchObject({ pid: process.pid, adminSocket: '/run/admin.sock' });
    lock.release();
  });

  it('takes over a lock left by a process that is gone, or by a reused pid', () => {
    const dir = freshDir();
    fs.writeFileSync(path.join(dir, 'atelier.lock'), JSON.stringify({ pid: 2 ** 22 + 1, started: '1' }));
    expect(lockHolder(dir)).toBeNull();
    lockDataDir(dir).release();
    // This process's pid, but another start time: the process that wrote it is gone.
    fs.writeFileSync(path.join(dir, 'atelier.lock'), JSON.stringify({ pid: process.pid, started: 'long ago' }));
    expect(lockHolder(dir)).toBeNull();
    lockDataDir(dir).release();
  });
});
