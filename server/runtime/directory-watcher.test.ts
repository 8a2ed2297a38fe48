import { chmodSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DirectoryWatcher } from './directory-watcher.ts';

const SOURCE = readFileSync(path.join(import.meta.dirname, 'directory-watcher.py'), 'utf8');
const root = mkdtempSync(path.join(tmpdir(), 'atelier-watcher-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const started: DirectoryWatcher[] = [];
afterEach(() => {
  for (const watcher of started.splice(0)) watcher.close();
});

let count = 0;
/** A work tree with a/b/c and d, every directory watched. */
async function watchedTree(): Promise<{ dir: string; watcher: DirectoryWatcher }> {
  const dir = path.join(root, `tree-${(count += 1)}`);
  mkdirSync(path.join(dir, 'a/b/c'), { recursive: true });
  mkdirSync(path.join(dir, 'd'));
  writeFileSync(path.join(dir, 'a/b/file.txt'), 'one\n');
  const watcher = DirectoryWatcher.start(SOURCE, dir) as DirectoryWatcher;
  started.push(watcher);
  expect(await watcher.watch(['', 'a', 'a/b', 'a/b/c', 'd'], [])).toEqual({
    watched: ['', 'a', 'a/b', 'a/b/c', 'd'],
    lost: [],
  });
  return { dir, watcher };
}

describe('the directory watcher', () => {
  it('reports the directories whose entries were written, created, deleted or changed, and nothing else', async () => {
    const { dir, watcher } = await watchedTree();
    expect(await watcher.changes()).toEqual({ dirty: [], lost: [], overflow: false });
    writeFileSync(path.join(dir, 'a/b/file.txt'), 'two\n');
    expect(await watcher.changes()).toEqual({ dirty: ['a/b'], lost: [], overflow: false });
    writeFileSync(path.join(dir, 'd/new.txt'), 'new\n');
    chmodSync(path.join(dir, 'a/b/file.txt'), 0o755);
    rmSync(path.join(dir, 'a/b/file.txt'));
    expect(await watcher.changes()).toEqual({ dirty: ['a/b', 'd'], lost: [], overflow: false });
    expect(await watcher.changes()).toEqual({ dirty: [], lost: [], overflow: false });
  });

  it('stops watching a directory moved or deleted, and everything below it', async () => {
    const { dir, watcher } = await watchedTree();
    renameSync(path.join(dir, 'a/b'), path.join(dir, 'd/b'));
    expect(await watcher.changes()).toEqual({ dirty: ['a', 'd'], lost: ['a/b', 'a/b/c'], overflow: false });
    // Moved, it is watched under its new name when asked.
    expect(await watcher.watch(['d/b'], [])).toEqual({ watched: ['d/b'], lost: [] });
    writeFileSync(path.join(dir, 'd/b/file.txt'), 'moved\n');
    expect(await watcher.changes()).toEqual({ dirty: ['d/b'], lost: [], overflow: false });
    rmSync(path.join(dir, 'd'), { recursive: true });
    const deleted = await watcher.changes();
    expect(deleted).toMatchObject({ dirty: expect.arrayContaining(['', 'd']), overflow: false });
    expect(deleted?.lost).toEqual(['d', 'd/b']);
  });

  it('says so when the kernel lost events, and watches nothing until asked again', async () => {
    const { dir, watcher } = await watchedTree();
    // The kernel merges a repeated event: alternating files make each write an event of its own.
    for (let i = 0; i < 17_000; i += 1) writeFileSync(path.join(dir, `d/${i % 2}.txt`), `${i}\n`);
    const lost = await watcher.changes();
    expect(lost).toMatchObject({ overflow: true });
    expect(lost?.lost).toEqual(['', 'a', 'a/b', 'a/b/c', 'd']);
    writeFileSync(path.join(dir, 'a/b/file.txt'), 'unwatched\n');
    expect(await watcher.changes()).toEqual({ dirty: [], lost: [], overflow: false });
    await watcher.watch(['a/b'], []);
    writeFileSync(path.join(dir, 'a/b/file.txt'), 'watched\n');
    expect(await watcher.changes()).toEqual({ dirty: ['a/b'], lost: [], overflow: false });
    // 17,000 writes took over 5 s here while the machine's file system was slow.
  }, 60_000);

  it('answers a directory gone before its watch as not watched, and no longer reports one unwatched', async () => {
    const { dir, watcher } = await watchedTree();
    expect(await watcher.watch(['gone', 'a/b/file.txt'], ['d'])).toEqual({ watched: [], lost: [] });
    writeFileSync(path.join(dir, 'd/new.txt'), 'new\n');
    expect(await watcher.changes()).toEqual({ dirty: [], lost: [], overflow: false });
  });

  it('answers null past its limit of watches, or without python', async () => {
    const dir = path.join(root, 'limited');
    mkdirSync(path.join(dir, 'a/b'), { recursive: true });
    process.env.ATELIER_WATCH_LIMIT = '2';
    const limited = DirectoryWatcher.start(SOURCE, dir) as DirectoryWatcher;
    delete process.env.ATELIER_WATCH_LIMIT;
    started.push(limited);
    expect(await limited.watch(['', 'a'], [])).toEqual({ watched: ['', 'a'], lost: [] });
    expect(await limited.watch(['a/b'], [])).toBeNull();

    const failing = DirectoryWatcher.start('raise SystemExit(1)', dir) as DirectoryWatcher;
    started.push(failing);
    expect(await failing.changes()).toBeNull();
    expect(DirectoryWatcher.start(undefined, dir)).toBeNull();
  });

  it('is ended when it answers nonsense, or nothing within 5 s', async () => {
    const dir = path.join(root, 'silent');
    mkdirSync(dir);
    const talking = DirectoryWatcher.start('import sys\nfor line in sys.stdin: print("not json", flush=True)', dir);
    const silent = DirectoryWatcher.start('import sys\nfor line in sys.stdin: pass', dir);
    started.push(talking as DirectoryWatcher, silent as DirectoryWatcher);
    expect(await talking?.changes()).toBeNull();
    const asked = performance.now();
    expect(await silent?.changes()).toBeNull();
    expect(performance.now() - asked).toBeGreaterThanOrEqual(4_900);
    // Ended: it answers nothing more.
    expect(await silent?.watch([''], [])).toBeNull();
  }, 15_000);
});
