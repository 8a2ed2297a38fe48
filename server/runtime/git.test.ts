import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempRuntime, type TempRuntime } from '../../tests/support/temp-runtime.ts';
import type { RuntimeSession } from './types.ts';

let temp: TempRuntime;
let session: RuntimeSession;

beforeAll(async () => {
  temp = await tempRuntime();
  session = await temp.runtime.start('git-test');
});

afterAll(async () => {
  await temp.cleanup();
});

describe('git', () => {
  it('starts as a repository without commits, whose new files are untracked', async () => {
    await session.writeFile('first.txt', 'first\n');
    expect(await session.gitChanges()).toEqual([{ path: 'first.txt', status: 'U' }]);
    expect(await session.gitDiff('first.txt')).toEqual({ original: '', modified: 'first\n' });
  });

  it('maps added, modified, deleted, renamed and untracked files after a commit', async () => {
    await session.writeFile('keep.txt', 'keep\n');
    await session.writeFile('gone.txt', 'gone\n');
    await session.writeFile('old-name.txt', 'moving\n');
    const committed = await session.runCommand({
      command: 'git add -A && git commit -qm initial && git log --format=%an',
    });
    expect(committed).toMatchObject({ exitCode: 0, output: 'Atelier' });

    await session.writeFile('keep.txt', 'keep, changed\n');
    await session.runCommand({ command: 'rm gone.txt && git mv old-name.txt new-name.txt' });
    await session.writeFile('staged.txt', 'staged\n');
    await session.runCommand({ command: 'git add staged.txt' });
    await session.writeFile('dir/untracked.txt', 'new\n');

    const changes = await session.gitChanges();
    expect(changes).toEqual(
      expect.arrayContaining([
        { path: 'keep.txt', status: 'M' },
        { path: 'gone.txt', status: 'D' },
        { path: 'new-name.txt', status: 'R' },
        { path: 'staged.txt', status: 'A' },
        { path: 'dir/untracked.txt', status: 'U' },
      ]),
    );
    expect(changes).toHaveLength(5);
  });

  it('diffs the committed and the working version', async () => {
    expect(await session.gitDiff('keep.txt')).toEqual({ original: 'keep\n', modified: 'keep, changed\n' });
    expect(await session.gitDiff('gone.txt')).toEqual({ original: 'gone\n', modified: '' });
    expect(await session.gitDiff('dir/untracked.txt')).toEqual({ original: '', modified: 'new\n' });
  });
});
