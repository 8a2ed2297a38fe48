import { existsSync, readdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempRuntime, type TempRuntime } from '../../tests/support/temp-runtime.ts';
import type { RuntimeSession, WorkspaceSnapshot } from './types.ts';

let temp: TempRuntime;
let source: RuntimeSession;

beforeAll(async () => {
  temp = await tempRuntime();
  source = await temp.runtime.start('snapshot-source');
});

afterAll(async () => {
  await temp.cleanup();
});

/** Every file of a workspace but git's own, with its text. */
async function filesOf(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full);
    if (entry.isFile() && !relative.split(path.sep).includes('.git')) files[relative] = await readFile(full, 'utf8');
  }
  return files;
}

/** The temporary object files in a workspace's repository. */
const sparesOf = (dir: string) =>
  readdirSync(path.join(dir, '.git', 'objects')).filter((name) => name.startsWith('tmp_obj_'));

const git = async (session: RuntimeSession, command: string) => (await session.runCommand({ command })).output;

describe('workspace snapshots', () => {
  const taken: { eventId: number; snapshot: WorkspaceSnapshot; files: Record<string, string> }[] = [];

  it('record the files after each change, and nothing when nothing changed', async () => {
    await source.writeFile('a.txt', 'one\n');
    const first = await source.snapshot('1');
    expect(first).toMatchObject({ head: null, branch: 'main' });
    taken.push({ eventId: 1, snapshot: first!, files: await filesOf(source.workspaceDir) });
    expect(await source.snapshot('2')).toBeNull();

    await git(source, 'git add a.txt && git commit -qm first && echo staged > staged.txt && git add staged.txt');
    await source.writeFile('a.txt', 'one, changed\n');
    await source.writeFile('dir/new.txt', 'new\n');
    await source.writeFile('.gitignore', 'ignored/\n');
    await source.writeFile('ignored/big.bin', 'not kept\n');
    const second = await source.snapshot('3');
    expect(second?.head).toMatch(/^[0-9a-f]{40}$/);
    expect(second?.tree).not.toBe(first?.tree);
    taken.push({ eventId: 3, snapshot: second!, files: await filesOf(source.workspaceDir) });

    await git(source, 'git checkout -qb feature && git add -A && git commit -qm second && rm dir/new.txt');
    const third = await source.snapshot('5');
    expect(third?.branch).toBe('feature');
    taken.push({ eventId: 5, snapshot: third!, files: await filesOf(source.workspaceDir) });
  });

  it("never touch the user's index, branch, stash or log", async () => {
    expect(await git(source, 'git status --porcelain=v1')).toBe(' D dir/new.txt');
    expect(await git(source, 'git log --all --format=%s')).toBe('second\nfirst');
    expect(await git(source, 'git stash list')).toBe('');
    expect(await git(source, "git for-each-ref --format='%(refname)' refs/atelier")).toBe(
      'refs/atelier/snapshots/1\nrefs/atelier/snapshots/3\nrefs/atelier/snapshots/5',
    );
  });

  it('fork into a workspace with exactly the files, HEAD and branch of then, changes uncommitted as they were', async () => {
    for (const [index, { eventId, snapshot, files }] of taken.entries()) {
      const id = `snapshot-fork-${index}`;
      await temp.runtime.fork('snapshot-source', id, snapshot, eventId);
      const fork = await temp.runtime.start(id);
      // The source's snapshot process writes into its spare files: the fork has none of them, not even linked.
      expect(sparesOf(source.workspaceDir).length).toBeGreaterThan(0);
      expect(sparesOf(fork.workspaceDir)).toEqual([]);
      const expected = Object.fromEntries(Object.entries(files).filter(([file]) => !file.startsWith('ignored')));
      expect(await filesOf(fork.workspaceDir)).toEqual(expected);
      expect(await git(fork, 'git symbolic-ref --short HEAD')).toBe(snapshot.branch);
      expect(await git(fork, 'git rev-parse -q --verify HEAD')).toBe(snapshot.head ?? '');
      expect(await git(fork, "git for-each-ref --format='%(refname)' refs/atelier")).toBe(
        taken
          .filter((earlier) => earlier.eventId <= eventId)
          .map((earlier) => `refs/atelier/snapshots/${earlier.eventId}`)
          .join('\n'),
      );
      // The fork's own snapshots go on from there.
      await fork.writeFile('after-fork.txt', 'x\n');
      expect(await fork.snapshot(String(eventId + 10))).toMatchObject({ branch: snapshot.branch });
    }
    const atCommit = await temp.runtime.start('snapshot-fork-1');
    expect(await git(atCommit, 'git status --porcelain=v1 --untracked-files=all')).toBe(
      [' M a.txt', '?? .gitignore', '?? after-fork.txt', '?? dir/new.txt', '?? staged.txt'].join('\n'),
    );
    expect(await git(source, 'git status --porcelain=v1')).toBe(' D dir/new.txt');
  });

  it('leave out files over 50 MB while they are, and say which', async () => {
    const session = await temp.runtime.start('snapshot-big');
    await git(session, 'truncate -s 51M big.bin && echo small > small.txt');
    const first = await session.snapshot('1');
    expect(first?.skipped).toEqual(['big.bin']);
    expect(await git(session, `git ls-tree --name-only ${first?.tree}`)).toBe('small.txt');
    await session.writeFile('other.txt', 'x\n');
    const second = await session.snapshot('2');
    expect(second?.skipped).toEqual(['big.bin']);
    expect(await git(session, `git ls-tree --name-only ${second?.tree}`)).toBe('other.txt\nsmall.txt');
    await temp.runtime.fork('snapshot-big', 'snapshot-big-fork', second!, 2);
    const fork = await temp.runtime.start('snapshot-big-fork');
    expect(await filesOf(fork.workspaceDir)).toEqual({ 'other.txt': 'x\n', 'small.txt': 'small\n' });
    await git(session, 'truncate -s 4 big.bin');
    const shrunk = await session.snapshot('3');
    expect(shrunk?.skipped).toEqual([]);
    expect(await git(session, `git ls-tree --name-only ${shrunk?.tree}`)).toBe('big.bin\nother.txt\nsmall.txt');
  });

  it("keep the user's changes after an event in a fork through that event, and drop later ones", async () => {
    const session = await temp.runtime.start('snapshot-user');
    await session.writeFile('agent.txt', 'agent\n');
    await session.snapshot('1');
    await session.writeFile('saved.txt', 'saved by the user\n');
    const users = await session.snapshot('1-user');
    await session.writeFile('later.txt', 'later\n');
    await session.snapshot('2');
    await session.writeFile('much-later.txt', 'x\n');
    await session.snapshot('2-user');
    await temp.runtime.fork('snapshot-user', 'snapshot-user-fork', users!, 1);
    const fork = await temp.runtime.start('snapshot-user-fork');
    expect(await filesOf(fork.workspaceDir)).toEqual({ 'agent.txt': 'agent\n', 'saved.txt': 'saved by the user\n' });
    expect(await git(fork, "git for-each-ref --format='%(refname)' refs/atelier")).toBe(
      'refs/atelier/snapshots/1\nrefs/atelier/snapshots/1-user',
    );
  });

  it('record bytes as they are, line endings and all, and fork them so', async () => {
    const session = await temp.runtime.start('snapshot-bytes');
    await session.writeFile('.gitattributes', '* text=auto eol=crlf\n');
    await session.writeFile('crlf.txt', 'one\r\ntwo\r\n');
    await session.writeFile('lf.txt', 'one\ntwo\n');
    const taken = await session.snapshot('1');
    // Taken by the snapshot process: git's own snapshots keep a private index.
    expect(existsSync(path.join(session.workspaceDir, '.git', 'atelier-snapshot-index'))).toBe(false);
    expect(await git(session, `git cat-file -p ${taken?.tree}:crlf.txt | od -c | head -1`)).toContain('\\r  \\n');
    await temp.runtime.fork('snapshot-bytes', 'snapshot-bytes-fork', taken!, 1);
    const fork = await temp.runtime.start('snapshot-bytes-fork');
    expect(await filesOf(fork.workspaceDir)).toEqual({
      '.gitattributes': '* text=auto eol=crlf\n',
      'crlf.txt': 'one\r\ntwo\r\n',
      'lf.txt': 'one\ntwo\n',
    });
    expect(existsSync(path.join(fork.workspaceDir, '.git', 'info', 'attributes'))).toBe(false);
  });

  it('leave a work tree they cannot read as git would to git', async () => {
    const session = await temp.runtime.start('snapshot-by-git');
    await git(session, 'git config core.filemode false && echo one > a.txt');
    const taken = await session.snapshot('1');
    expect(await git(session, `git ls-tree --name-only ${taken?.tree}`)).toBe('a.txt');
    expect(existsSync(path.join(session.workspaceDir, '.git', 'atelier-snapshot-index'))).toBe(true);
  });

  it('refuse a source without a workspace on this server', async () => {
    await expect(temp.runtime.fork('snapshot-missing', 'snapshot-nowhere', taken[0]!.snapshot, 1)).rejects.toThrow(
      'There is no workspace of conversation snapshot-missing on this server',
    );
  });
});
