import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
  it('are the trees git writes, over random work trees and ignore rules', () => {
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
      expect({ seed, tree: walker.snapshot('1', null).tree }).toEqual({ seed, tree: expected });
    }
  }, 60_000);

  it('let a deeper ignore file re-include what a shallower one excludes, and not what it never matched', () => {
    const dir = repository();
    put(dir, '.gitignore', 'a/b/\n*.log\n');
    put(dir, 'a/.gitignore', '!b/\n');
    put(dir, 'a/b/x.txt');
    put(dir, 'a/b/y.log');
    put(dir, 'a/b/.gitignore', '!y.log\n');
    put(dir, 'a/c.log');
    expect(trees(dir).snapshot('1', null).tree).toBe(gitTree(dir));
    expect(git(dir, ['ls-tree', '-r', '--name-only', 'refs/atelier/snapshots/1'])).toBe(
      '.gitignore\na/.gitignore\na/b/.gitignore\na/b/x.txt\na/b/y.log',
    );
  });

  it('record modes, links and names in git order, and only what changed is read again', () => {
    const dir = repository();
    put(dir, 'run.sh', '#!/bin/sh\n');
    chmodSync(path.join(dir, 'run.sh'), 0o755);
    symlinkSync('run.sh', path.join(dir, 'link'));
    symlinkSync('/nowhere', path.join(dir, 'dangling'));
    for (const file of ['a.b', 'a/b', 'a-b', 'a0', 'ä/x', 'z', 'Z', 'empty/.keep']) put(dir, file);
    mkdirSync(path.join(dir, 'only-empty/inner'), { recursive: true });
    put(dir, '.git/info/exclude', 'z\n');
    const walker = trees(dir);
    const first = walker.snapshot('1', null);
    expect(first.tree).toBe(gitTree(dir));
    expect(first).toMatchObject({ head: null, branch: 'main', skipped: [] });
    expect(git(dir, ['cat-file', '-t', `refs/atelier/snapshots/1`])).toBe('tree');

    put(dir, 'a/b', 'changed\n');
    chmodSync(path.join(dir, 'run.sh'), 0o644);
    rmSync(path.join(dir, 'a.b'));
    const second = walker.snapshot('2', first.tree);
    expect(second.tree).toBe(gitTree(dir));
    expect(second.tree).not.toBe(first.tree);
    expect(walker.snapshot('3', second.tree).tree).toBe(second.tree);
    expect(git(dir, ['for-each-ref', '--format=%(refname)', 'refs/atelier'])).toBe(
      'refs/atelier/snapshots/1\nrefs/atelier/snapshots/2',
    );
  });

  it('see a change of the same size within the same second', () => {
    const dir = repository();
    put(dir, 'f.txt', 'one\n');
    const walker = trees(dir);
    walker.snapshot('1', null);
    put(dir, 'f.txt', 'two\n');
    expect(walker.snapshot('2', null).tree).toBe(gitTree(dir));
  });

  it('read HEAD and its branch, loose or packed, and detached', () => {
    const dir = repository();
    put(dir, 'f.txt');
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-qm', 'first']);
    const commit = git(dir, ['rev-parse', 'HEAD']);
    expect(trees(dir).snapshot('1', null)).toMatchObject({ head: commit, branch: 'main' });
    git(dir, ['pack-refs', '--all']);
    expect(trees(dir).snapshot('2', null)).toMatchObject({ head: commit, branch: 'main' });
    git(dir, ['checkout', '-q', '--detach']);
    expect(trees(dir).snapshot('3', null)).toMatchObject({ head: commit, branch: null });
  });

  it('leave out files over the limit, for as long as they are', () => {
    const dir = repository();
    put(dir, 'small.txt');
    put(dir, 'big.bin', '');
    truncateSync(path.join(dir, 'big.bin'), SNAPSHOT_FILE_LIMIT_BYTES + 1);
    const walker = trees(dir);
    const taken = walker.snapshot('1', null);
    expect(taken.skipped).toEqual(['big.bin']);
    expect(git(dir, ['ls-tree', '--name-only', taken.tree])).toBe('small.txt');
    truncateSync(path.join(dir, 'big.bin'), 10);
    expect(walker.snapshot('2', taken.tree).skipped).toEqual([]);
  });

  it('leave to git what they cannot record as git would', () => {
    const nested = repository();
    put(nested, 'inner/.git/HEAD', 'ref: refs/heads/main\n');
    expect(() => trees(nested).snapshot('1', null)).toThrow(SnapshotUnsupported);
    const config = repository();
    git(config, ['config', 'core.filemode', 'false']);
    expect(() => trees(config).snapshot('1', null)).toThrow('core.filemode=false');
  });

  it('follow a global excludes file and the index of any version', () => {
    const dir = repository();
    put(home, '.config/git/ignore', '*.secret\n');
    put(dir, 'a.secret');
    put(dir, 'b.txt');
    put(dir, 'tracked.secret');
    git(dir, ['add', '-f', 'tracked.secret']);
    for (const version of ['2', '3', '4']) {
      git(dir, ['update-index', '--index-version', version]);
      expect(trees(dir).snapshot('1', null).tree).toBe(gitTree(dir));
    }
    rmSync(path.join(home, '.config'), { recursive: true });
  });
});
