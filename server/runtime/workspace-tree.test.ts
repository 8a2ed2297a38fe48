import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DirectoryWatcher } from './directory-watcher.ts';
import { SNAPSHOT_FILE_LIMIT_BYTES } from './snapshot-limits.ts';
import { SnapshotUnsupported, WorkspaceTrees } from './workspace-tree.ts';

const root = mkdtempSync(path.join(tmpdir(), 'atelier-trees-'));
const home = path.join(root, 'home');
mkdirSync(home);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: '', GIT_CONFIG_NOSYSTEM: '1' };
const git = (dir: string, args: string[], extra: Record<string, string> = {}) =>
  execFileSync('git', args, { cwd: dir, env: { ...env, ...extra }, encoding: 'utf8' }).trim();

let count = 0;
function repository(): string {
  const dir = path.join(root, `ws-${(count += 1)}`);
  mkdirSync(dir);
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.name', 'T']);
  git(dir, ['config', 'user.email', 't@example.com']);
  return dir;
}

function put(dir: string, file: string, text = `${file}\n`): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

/** A random file can land where a file is a directory, or the reverse: the work tree stays as it is then. */
function putWherePossible(dir: string, file: string, text?: string): void {
  try {
    put(dir, file, text);
  } catch {
    // Left as it is.
  }
}

/** What git records: `git add -A` into a copy of the user's index, then `write-tree`. */
function gitTree(dir: string): string {
  const index = path.join(dir, '.git', 'reference-index');
  rmSync(index, { force: true });
  try {
    copyFileSync(path.join(dir, '.git', 'index'), index);
  } catch {
    // No index yet: git starts from an empty one.
  }
  git(dir, ['add', '-A'], { GIT_INDEX_FILE: index });
  const tree = git(dir, ['write-tree'], { GIT_INDEX_FILE: index });
  rmSync(index);
  return tree;
}

const trees = (dir: string) => new WorkspaceTrees(dir, home, undefined);

/** A small deterministic generator, so a failing case can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const PATTERNS = [
  '*.log',
  '!keep.log',
  'build/',
  '/top.txt',
  'src/*.tmp',
  '**/cache',
  'a/**/b',
  'docs/**',
  '*.[oa]',
  'name?.txt',
  '!build/',
  '*',
  '!*/',
  '!*.txt',
  'sub',
  '!sub/x.txt',
  'x/',
  '!x/',
  'deep/er/',
  '\\#hash',
  'trailing\\ ',
  '[!a-m]*.md',
  '**/b/**',
  'src/**/*.js',
  '!src/keep.js',
  'cache/',
  '/a',
];
const DIRECTORIES = [
  '',
  'src',
  'src/lib',
  'a',
  'a/b',
  'a/x/b',
  'build',
  'docs',
  'sub',
  'x',
  'deep/er',
  'deep',
  'cache',
];
const NAMES = [
  'top.txt',
  'keep.log',
  'err.log',
  'm.o',
  'lib.a',
  'name1.txt',
  'z.md',
  'b.md',
  'x.txt',
  'y.js',
  'keep.js',
  '#hash',
  'trailing ',
  'b',
  'cache',
  'é.txt',
  'a.b',
  'a-b',
  'a0',
];

describe('workspace trees', () => {
  it('are the trees git writes, over random work trees and ignore rules', async () => {
    for (let seed = 1; seed <= 80; seed += 1) {
      const next = random(seed);
      const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
      const dir = repository();
      for (let i = 0; i < 40; i += 1) putWherePossible(dir, path.posix.join(pick(DIRECTORIES), pick(NAMES)));
      for (const directory of ['', pick(DIRECTORIES), pick(DIRECTORIES), pick(DIRECTORIES)]) {
        const rules = Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(PATTERNS));
        putWherePossible(dir, path.posix.join(directory, '.gitignore'), `${rules.join('\n')}\n`);
      }
      if (next() < 0.5) {
        // Tracked, then ignored: still recorded.
        git(dir, ['add', '-A', '-f']);
        putWherePossible(dir, path.posix.join(pick(DIRECTORIES), pick(NAMES)), 'after\n');
      }
      const walker = trees(dir);
      const expected = gitTree(dir);
      expect({ seed, tree: (await walker.snapshot('1', null)).tree }).toEqual({ seed, tree: expected });
    }
  }, 60_000);

  it('let a deeper ignore file re-include what a shallower one excludes, and not what it never matched', async () => {
    const dir = repository();
    put(dir, '.gitignore', 'a/b/\n*.log\n');
    put(dir, 'a/.gitignore', '!b/\n');
    put(dir, 'a/b/x.txt');
    put(dir, 'a/b/y.log');
    put(dir, 'a/b/.gitignore', '!y.log\n');
    put(dir, 'a/c.log');
    expect((await trees(dir).snapshot('1', null)).tree).toBe(gitTree(dir));
    expect(git(dir, ['ls-tree', '-r', '--name-only', 'refs/atelier/snapshots/1'])).toBe(
      '.gitignore\na/.gitignore\na/b/.gitignore\na/b/x.txt\na/b/y.log',
    );
  });

  it('record modes, links and names in git order, and only what changed is read again', async () => {
    const dir = repository();
    put(dir, 'run.sh', '#!/bin/sh\n');
    chmodSync(path.join(dir, 'run.sh'), 0o755);
    symlinkSync('run.sh', path.join(dir, 'link'));
    symlinkSync('/nowhere', path.join(dir, 'dangling'));
    for (const file of ['a.b', 'a/b', 'a-b', 'a0', 'ä/x', 'z', 'Z', 'empty/.keep']) put(dir, file);
    mkdirSync(path.join(dir, 'only-empty/inner'), { recursive: true });
    put(dir, '.git/info/exclude', 'z\n');
    const walker = trees(dir);
    const first = await walker.snapshot('1', null);
    expect(first.tree).toBe(gitTree(dir));
    expect(first).toMatchObject({ head: null, branch: 'main', skipped: [] });
    expect(git(dir, ['cat-file', '-t', `refs/atelier/snapshots/1`])).toBe('tree');

    put(dir, 'a/b', 'changed\n');
    chmodSync(path.join(dir, 'run.sh'), 0o644);
    rmSync(path.join(dir, 'a.b'));
    const second = await walker.snapshot('2', first.tree);
    expect(second.tree).toBe(gitTree(dir));
    expect(second.tree).not.toBe(first.tree);
    expect((await walker.snapshot('3', second.tree)).tree).toBe(second.tree);
    expect(git(dir, ['for-each-ref', '--format=%(refname)', 'refs/atelier'])).toBe(
      'refs/atelier/snapshots/1\nrefs/atelier/snapshots/2',
    );
  });

  it('write objects into files made ahead, and remove those an earlier process left', async () => {
    const dir = repository();
    put(dir, 'a/b/c.txt', 'one\n');
    const objects = path.join(dir, '.git', 'objects');
    const spares = () => readdirSync(objects).filter((name) => name.startsWith('tmp_obj_atelier_'));
    writeFileSync(path.join(objects, 'tmp_obj_atelier_0123456789ab_1'), '');
    const walker = trees(dir);
    const first = await walker.snapshot('1', null);
    walker.prepareSpares();
    const made = spares();
    expect(made).toHaveLength(8);

    put(dir, 'a/b/c.txt', 'two\n');
    const second = await walker.snapshot('2', first.tree);
    expect(second.tree).toBe(gitTree(dir));
    // The blob, the trees of a/b, a and the root, and the ref's lock: each written into a spare.
    const left = spares();
    expect(left).toHaveLength(3);
    expect(left.every((name) => made.includes(name))).toBe(true);
    const blob = git(dir, ['rev-parse', `${second.tree}:a/b/c.txt`]);
    expect(git(dir, ['cat-file', '-p', blob])).toBe('two');
    expect(statSync(path.join(objects, blob.slice(0, 2), blob.slice(2))).mode & 0o777).toBe(0o444);
    expect(git(dir, ['fsck', '--no-dangling'])).toBe('');
    expect(git(dir, ['rev-parse', 'refs/atelier/snapshots/2'])).toBe(second.tree);
    walker.prepareSpares();
    expect(spares()).toHaveLength(8);

    // A ref whose lock another writer holds is not written.
    put(dir, 'a/b/c.txt', 'three\n');
    writeFileSync(path.join(dir, '.git', 'refs', 'atelier', 'snapshots', '3.lock'), '');
    await expect(walker.snapshot('3', second.tree)).rejects.toThrow(/EEXIST/);
    expect(existsSync(path.join(dir, '.git', 'refs', 'atelier', 'snapshots', '3'))).toBe(false);
  });

  it('see a change of the same size within the same second', async () => {
    const dir = repository();
    put(dir, 'f.txt', 'one\n');
    const walker = trees(dir);
    await walker.snapshot('1', null);
    put(dir, 'f.txt', 'two\n');
    expect((await walker.snapshot('2', null)).tree).toBe(gitTree(dir));
  });

  it('read HEAD and its branch, loose or packed, and detached', async () => {
    const dir = repository();
    put(dir, 'f.txt');
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-qm', 'first']);
    const commit = git(dir, ['rev-parse', 'HEAD']);
    expect(await trees(dir).snapshot('1', null)).toMatchObject({ head: commit, branch: 'main' });
    git(dir, ['pack-refs', '--all']);
    expect(await trees(dir).snapshot('2', null)).toMatchObject({ head: commit, branch: 'main' });
    git(dir, ['checkout', '-q', '--detach']);
    expect(await trees(dir).snapshot('3', null)).toMatchObject({ head: commit, branch: null });
  });

  it('leave out files over the limit, for as long as they are', async () => {
    const dir = repository();
    put(dir, 'small.txt');
    put(dir, 'big.bin', '');
    truncateSync(path.join(dir, 'big.bin'), SNAPSHOT_FILE_LIMIT_BYTES + 1);
    const walker = trees(dir);
    const taken = await walker.snapshot('1', null);
    expect(taken.skipped).toEqual(['big.bin']);
    expect(git(dir, ['ls-tree', '--name-only', taken.tree])).toBe('small.txt');
    truncateSync(path.join(dir, 'big.bin'), 10);
    expect((await walker.snapshot('2', taken.tree)).skipped).toEqual([]);
  });

  it('leave to git what they cannot record as git would', async () => {
    const nested = repository();
    put(nested, 'inner/.git/HEAD', 'ref: refs/heads/main\n');
    await expect(trees(nested).snapshot('1', null)).rejects.toThrow(SnapshotUnsupported);
    const config = repository();
    git(config, ['config', 'core.filemode', 'false']);
    await expect(trees(config).snapshot('1', null)).rejects.toThrow('core.filemode=false');
  });

  it('follow a global excludes file and the index of any version', async () => {
    const dir = repository();
    put(home, '.config/git/ignore', '*.secret\n');
    put(dir, 'a.secret');
    put(dir, 'b.txt');
    put(dir, 'tracked.secret');
    git(dir, ['add', '-f', 'tracked.secret']);
    for (const version of ['2', '3', '4']) {
      git(dir, ['update-index', '--index-version', version]);
      expect((await trees(dir).snapshot('1', null)).tree).toBe(gitTree(dir));
    }
    rmSync(path.join(home, '.config'), { recursive: true });
  });
});

const WATCHER = readFileSync(path.join(import.meta.dirname, 'directory-watcher.py'), 'utf8');
const walkers: WorkspaceTrees[] = [];
function watchedTrees(dir: string): WorkspaceTrees {
  const walker = new WorkspaceTrees(dir, home, undefined, DirectoryWatcher.start(WATCHER, dir));
  walkers.push(walker);
  return walker;
}

/** The work tree's files and links, by path, .git left out. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes('.git'));
}

/**
 * One random change of the kinds an agent's step makes, among them writes through a second name
 * of a file: in the work tree, or `outside` it (linked before the watcher started).
 */
function change(dir: string, outside: string, next: () => number): void {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const files = filesIn(dir);
  const file = files.length > 0 ? path.join(dir, pick(files)) : null;
  const directory = pick(DIRECTORIES.slice(1));
  const kind = Math.floor(next() * 12);
  try {
    if (kind <= 1) put(dir, path.posix.join(pick(DIRECTORIES), pick(NAMES)), pick(['v1\n', 'v2\n', 'longer text\n']));
    else if (kind === 2 && file) rmSync(file);
    else if (kind === 3) rmSync(path.join(dir, directory), { recursive: true, force: true });
    else if (kind === 4) {
      const target = path.join(dir, pick(DIRECTORIES.slice(1)));
      if (!target.startsWith(`${path.join(dir, directory)}/`) && !existsSync(target)) {
        mkdirSync(path.dirname(target), { recursive: true });
        renameSync(path.join(dir, directory), target);
      }
    } else if (kind === 5 && file) chmodSync(file, next() < 0.5 ? 0o755 : 0o644);
    else if (kind === 6) {
      const rules = Array.from({ length: Math.floor(next() * 3) }, () => pick(PATTERNS));
      if (rules.length) put(dir, path.posix.join(pick(DIRECTORIES), '.gitignore'), `${rules.join('\n')}\n`);
      else rmSync(path.join(dir, pick(DIRECTORIES), '.gitignore'), { force: true });
    } else if (kind === 7) symlinkSync(pick(NAMES), path.join(dir, pick(DIRECTORIES), `link-${pick(NAMES)}`));
    else if (kind === 8 && file) git(dir, ['add', '-f', '--', path.relative(dir, file)]);
    else if (kind === 9) writeFileSync(outside, `through the outside name ${next()}\n`);
    else if (kind === 10 && file) {
      const second = path.join(dir, directory, `second-${pick(NAMES)}`);
      linkSync(file, second);
      writeFileSync(second, `through a second name ${next()}\n`);
    } else if (kind === 11 && file) utimesSync(file, new Date(), new Date(Date.now() - 60_000));
  } catch {
    // A change that does not apply to this work tree (a file where a directory is, say) is none.
  }
}

describe('workspace trees read through a directory watcher', () => {
  afterEach(() => {
    for (const walker of walkers.splice(0)) walker.close();
  });

  it('are the trees git writes after every change', async () => {
    for (let seed = 1; seed <= 8; seed += 1) {
      const next = random(seed * 7919);
      const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
      const dir = repository();
      for (let i = 0; i < 30; i += 1) putWherePossible(dir, path.posix.join(pick(DIRECTORIES), pick(NAMES)));
      put(dir, '.gitignore', `${pick(PATTERNS)}\n`);
      put(dir, 'src/linked.txt');
      const outside = path.join(root, `outside-${seed}`);
      linkSync(path.join(dir, 'src/linked.txt'), outside);
      const walker = watchedTrees(dir);
      for (let step = 1; step <= 30; step += 1) {
        const changes = 1 + Math.floor(next() * 3);
        for (let i = 0; i < changes; i += 1) change(dir, outside, next);
        const taken = await walker.snapshot(String(step), null);
        expect({ seed, step, tree: taken.tree }).toEqual({ seed, step, tree: gitTree(dir) });
      }
    }
  }, 120_000);

  it('list only the directories that changed, and every one once the watcher is gone', async () => {
    const dir = repository();
    for (let d = 0; d < 10; d += 1) put(dir, `d${d}/f.txt`);
    const walker = watchedTrees(dir);
    await walker.snapshot('1', null);
    expect(walker.directoriesRead).toBe(11);
    // Read again once watched: from then on, what is unchanged is not read.
    await walker.snapshot('2', null);
    expect(walker.directoriesRead).toBe(11);
    await walker.snapshot('3', null);
    expect(walker.directoriesRead).toBe(0);
    put(dir, 'd3/f.txt', 'changed\n');
    expect((await walker.snapshot('4', null)).tree).toBe(gitTree(dir));
    expect(walker.directoriesRead).toBe(2);
    put(dir, 'd3/new/g.txt');
    expect((await walker.snapshot('5', null)).tree).toBe(gitTree(dir));
    expect(walker.directoriesRead).toBe(3);
    walker.close();
    put(dir, 'd5/f.txt', 'after the watcher\n');
    expect((await walker.snapshot('6', null)).tree).toBe(gitTree(dir));
    expect(walker.directoriesRead).toBe(12);
  });

  it('see what a changed ignore file or index takes in or leaves out below it', async () => {
    const dir = repository();
    for (const file of ['a/b/x.log', 'a/b/x.txt', 'a/y.log', 'c/z.tmp']) put(dir, file);
    const walker = watchedTrees(dir);
    /** Until a snapshot reads nothing: every directory watched, no ignore file changed in the last 50 ms. */
    const settled = async () => {
      for (let i = 0; i < 5 && (i === 0 || walker.directoriesRead > 0); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 60));
        await walker.snapshot('settle', null);
      }
      expect(walker.directoriesRead).toBe(0);
    };
    const steps: [string, () => void][] = [
      ['a root ignore file', () => put(dir, '.gitignore', '*.log\n')],
      ['a deeper one', () => put(dir, 'a/.gitignore', '!*.log\nb/\n')],
      ['the repository excludes', () => put(dir, '.git/info/exclude', '*.tmp\n')],
      ['the global excludes', () => put(home, '.config/git/ignore', '*.txt\n')],
      ['the index', () => git(dir, ['add', '-f', 'a/b/x.log', 'c/z.tmp'])],
      ['a removed ignore file', () => rmSync(path.join(dir, 'a/.gitignore'))],
    ];
    for (const [step, apply] of steps) {
      await settled();
      apply();
      expect({ step, tree: (await walker.snapshot('1', null)).tree }).toEqual({ step, tree: gitTree(dir) });
    }
    rmSync(path.join(home, '.config'), { recursive: true });
  });

  it('see a write through another name of a file, in the work tree or out of it when linked before', async () => {
    const dir = repository();
    put(dir, 'linked/f.txt', 'one\n');
    put(dir, 'plain/f.txt', 'one\n');
    put(dir, 'other/f.txt', 'one\n');
    const outside = path.join(root, 'outside-linked');
    linkSync(path.join(dir, 'linked/f.txt'), outside);
    const walker = watchedTrees(dir);
    await walker.snapshot('1', null);
    await walker.snapshot('2', null);
    writeFileSync(outside, 'two, no event of the work tree\n');
    expect((await walker.snapshot('3', null)).tree).toBe(gitTree(dir));
    // A directory holding such a file is read at every snapshot.
    await walker.snapshot('4', null);
    expect(walker.directoriesRead).toBe(2);
    // A new second name in the work tree: its first name's directory may be taken as current.
    linkSync(path.join(dir, 'plain/f.txt'), path.join(dir, 'other/g.txt'));
    writeFileSync(path.join(dir, 'other/g.txt'), 'two, an event of other/ only\n');
    expect((await walker.snapshot('5', null)).tree).toBe(gitTree(dir));
  });
});
