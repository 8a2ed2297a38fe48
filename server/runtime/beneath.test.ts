import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Beneath } from './beneath.ts';

let root: string;
let outside: string;
let beneath: Beneath;

beforeAll(async () => {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'atelier-beneath-')));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'dir', 'deeper'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret'), 'outside');
  await writeFile(path.join(root, 'dir', 'deeper', 'file.txt'), 'inside');
  await symlink('dir/deeper', path.join(root, 'relative-link'));
  await symlink(path.join(root, 'dir'), path.join(root, 'absolute-link'));
  await symlink('../../dir/deeper/file.txt', path.join(root, 'dir', 'deeper', 'up-and-back'));
  await symlink(outside, path.join(root, 'out-link'));
  await symlink('../outside/secret', path.join(root, 'out-file'));
  await symlink('loop-b', path.join(root, 'loop-a'));
  await symlink('loop-a', path.join(root, 'loop-b'));
  execFileSync('mkfifo', [path.join(root, 'fifo')]);
  beneath = new Beneath(root);
});

afterAll(async () => {
  await rm(path.dirname(root), { recursive: true, force: true });
});

describe('opening beneath a directory', () => {
  it('follows links that stay inside, relative or absolute, and names where they led', async () => {
    expect((await beneath.read('relative-link/file.txt')).toString()).toBe('inside');
    expect((await beneath.read('absolute-link/deeper/file.txt')).toString()).toBe('inside');
    expect((await beneath.read('dir/deeper/up-and-back')).toString()).toBe('inside');
    const { dir, relative } = await beneath.resolve('relative-link/file.txt', { want: 'entry' });
    await dir.close();
    expect(relative).toBe('dir/deeper/file.txt');
  });

  it('refuses links and .. that leave, whether read, listed or written through', async () => {
    for (const requested of ['out-link/secret', 'out-file', '../outside/secret', '/etc/passwd'])
      await expect(beneath.read(requested)).rejects.toThrow(`Path is outside the workspace: ${requested}`);
    await expect(beneath.list('out-link')).rejects.toThrow(/outside the workspace/);
    await expect(beneath.write('out-link/new', 'x')).rejects.toThrow(/outside the workspace/);
    expect(execFileSync('ls', [outside], { encoding: 'utf8' }).trim()).toBe('secret');
  });

  it('creates missing directories, refuses a FIFO and a directory as a file, ends link loops', async () => {
    await beneath.write('made/on/the/way.txt', 'new');
    expect(await readFile(path.join(root, 'made/on/the/way.txt'), 'utf8')).toBe('new');
    await expect(beneath.read('fifo')).rejects.toThrow('Not a file: fifo');
    await expect(beneath.read('dir')).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(beneath.read('loop-a')).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(beneath.read('missing/file')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(beneath.read('dir/deeper/file.txt/below')).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('removes a link itself, never what it points at, and bounds what it reads', async () => {
    await symlink('dir/deeper/file.txt', path.join(root, 'doomed-link'));
    await beneath.remove('doomed-link');
    expect((await beneath.read('dir/deeper/file.txt')).toString()).toBe('inside');
    await expect(beneath.read('dir/deeper/file.txt', 3)).rejects.toMatchObject({ code: 'EFBIG' });
  });

  it('closes every directory it opened on the way, whatever the path came to', async () => {
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 50; i++) {
      await beneath.read('relative-link/file.txt');
      await beneath.list('absolute-link/deeper');
      await beneath.read('out-link/secret').catch(() => undefined);
      await beneath.read('missing/file').catch(() => undefined);
      await beneath.write(`made/file-${i}.txt`, 'x');
      await beneath.stat('dir/deeper/up-and-back');
    }
    expect(open()).toBe(before);
  });
});
