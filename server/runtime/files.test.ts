import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempRuntime, type TempRuntime } from '../../tests/support/temp-runtime.ts';
import type { RuntimeSession } from './types.ts';

let temp: TempRuntime;
let session: RuntimeSession;

beforeAll(async () => {
  temp = await tempRuntime();
  session = await temp.runtime.start('files-test');
});

afterAll(async () => {
  await temp.cleanup();
});

describe('editor', () => {
  it('creates a file and refuses to create it again', async () => {
    const created = await session.editor({ command: 'create', path: 'notes/todo.txt', file_text: 'one\ntwo\nthree\n' });
    expect(created.output).toMatch(/File created successfully/);
    expect(created.oldContent).toBeNull();
    expect(created.diff).toContain('+++ b/notes/todo.txt');
    expect(created.diff).toContain('+two');
    await expect(session.editor({ command: 'create', path: 'notes/todo.txt', file_text: 'again' })).rejects.toThrow(
      /already exists/,
    );
  });

  it('views a file with line numbers and a range', async () => {
    const whole = await session.editor({ command: 'view', path: 'notes/todo.txt' });
    expect(whole.output).toContain('     1\tone\n     2\ttwo\n     3\tthree');
    const part = await session.editor({
      command: 'view',
      path: `${session.workspaceDir}/notes/todo.txt`,
      view_range: [2, 3],
    });
    expect(part.output).toContain('     2\ttwo\n     3\tthree');
    expect(part.output).not.toContain('\tone');
    await expect(session.editor({ command: 'view', path: 'notes/todo.txt', view_range: [5, 6] })).rejects.toThrow(
      /view_range/,
    );
    // Past the end: shown to the end, with a note, not refused.
    const over = await session.editor({ command: 'view', path: 'notes/todo.txt', view_range: [2, 10] });
    expect(over.output).toContain('     2\ttwo\n     3\tthree');
    expect(over.output).toMatch(/NOTE: The file has only \d+ lines, so lines 2 to \d+ are shown\.$/);
  });

  it('views a directory two levels deep without hidden entries', async () => {
    await session.writeFile('deep/a/b/c.txt', 'c');
    await session.writeFile('.hidden/x', 'x');
    const view = await session.editor({ command: 'view', path: '.' });
    expect(view.output).toContain(`${session.workspaceDir}/deep/a/`);
    expect(view.output).not.toContain('deep/a/b');
    expect(view.output).not.toContain('.hidden');
    expect(view.output).not.toContain('.git');
  });

  it('replaces a unique string and explains zero or several matches', async () => {
    const edit = await session.editor({
      command: 'str_replace',
      path: 'notes/todo.txt',
      old_str: 'two',
      new_str: 'TWO',
    });
    expect(edit.newContent).toBe('one\nTWO\nthree\n');
    expect(edit.output).toContain('     2\tTWO');
    expect(edit.diff).toContain('-two\n+TWO');
    await expect(
      session.editor({ command: 'str_replace', path: 'notes/todo.txt', old_str: 'four', new_str: '4' }),
    ).rejects.toThrow(/did not appear verbatim/);
    await session.writeFile('repeat.txt', 'x = 1\ny = 2\nx = 1\n');
    await expect(
      session.editor({ command: 'str_replace', path: 'repeat.txt', old_str: 'x = 1', new_str: 'x = 3' }),
    ).rejects.toThrow(/Multiple occurrences .* in lines \[1,3\]/);
  });

  it('inserts after a line and undoes edits one by one', async () => {
    const inserted = await session.editor({
      command: 'insert',
      path: 'notes/todo.txt',
      insert_line: 1,
      new_str: 'one and a half',
    });
    expect(inserted.newContent).toBe('one\none and a half\nTWO\nthree\n');
    await expect(
      session.editor({ command: 'insert', path: 'notes/todo.txt', insert_line: 99, new_str: 'x' }),
    ).rejects.toThrow(/insert_line/);
    await session.editor({ command: 'undo_edit', path: 'notes/todo.txt' });
    expect(await session.readFile('notes/todo.txt')).toBe('one\nTWO\nthree\n');
    await session.editor({ command: 'undo_edit', path: 'notes/todo.txt' });
    expect(await session.readFile('notes/todo.txt')).toBe('one\ntwo\nthree\n');
    await session.editor({ command: 'undo_edit', path: 'notes/todo.txt' });
    await expect(session.readFile('notes/todo.txt')).rejects.toThrow(/ENOENT/);
    await expect(session.editor({ command: 'undo_edit', path: 'notes/todo.txt' })).rejects.toThrow(/No edit history/);
  });
});

describe('files', () => {
  it('lists, writes, reads and puts files', async () => {
    await session.writeFile('src/app.ts', 'export {};\n');
    await session.putFile('upload/data.bin', new Uint8Array([0, 1, 2, 255]));
    expect(await session.readFile('src/app.ts')).toBe('export {};\n');
    expect([...(await readFile(path.join(session.workspaceDir, 'upload/data.bin')))]).toEqual([0, 1, 2, 255]);
    const root = await session.listFiles();
    expect(root).toEqual(expect.arrayContaining(['src/', 'upload/']));
    expect(root).not.toContain('.git/');
    expect(await session.listFiles('src')).toEqual(['app.ts']);
  });

  it('refuses paths outside the workspace', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'atelier-outside-'));
    try {
      await writeFile(path.join(outside, 'secret.txt'), 'secret');
      await symlink('/etc', path.join(session.workspaceDir, 'etc-link'));
      await symlink(outside, path.join(session.workspaceDir, 'outside-link'));
      await expect(session.readFile('../x')).rejects.toThrow('Path is outside the workspace: ../x');
      await expect(session.readFile('/etc/passwd')).rejects.toThrow(/outside the workspace/);
      await expect(session.readFile('etc-link/passwd')).rejects.toThrow(/outside the workspace/);
      await expect(session.writeFile('outside-link/new.txt', 'x')).rejects.toThrow(/outside the workspace/);
      await expect(session.editor({ command: 'view', path: 'outside-link/secret.txt' })).rejects.toThrow(
        /outside the workspace/,
      );
      await expect(session.listFiles('sub/../../')).rejects.toThrow(/outside the workspace/);
      await expect(session.putFile(`${temp.rootDir}/other/x`, new Uint8Array([1]))).rejects.toThrow(
        /outside the workspace/,
      );
      await expect(session.gitDiff('../files-test/../x')).rejects.toThrow(/outside the workspace/);
    } finally {
      await rm(path.join(session.workspaceDir, 'etc-link'));
      await rm(path.join(session.workspaceDir, 'outside-link'));
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('zips the workspace without .git', async () => {
    await mkdir(path.join(session.workspaceDir, 'empty-dir'), { recursive: true });
    await session.writeFile('big.txt', 'compress me '.repeat(1000));
    const zip = await session.zip();
    const zipPath = path.join(os.tmpdir(), `atelier-zip-${process.pid}.zip`);
    await writeFile(zipPath, zip);
    try {
      const listing = execFileSync('unzip', ['-l', zipPath], { encoding: 'utf8' });
      expect(listing).toContain('src/app.ts');
      expect(listing).toContain('upload/data.bin');
      expect(listing).toContain('empty-dir/');
      expect(listing).not.toContain('.git/');
      execFileSync('unzip', ['-tq', zipPath]);
      expect(execFileSync('unzip', ['-p', zipPath, 'big.txt'], { encoding: 'utf8' })).toBe('compress me '.repeat(1000));
      expect(zip.length).toBeLessThan(12_000 / 2);
    } finally {
      await rm(zipPath, { force: true });
    }
  });

  it('zips a symlink as the link itself, never what it points at', async () => {
    await symlink('/etc', path.join(session.workspaceDir, 'etc-link'));
    const zipPath = path.join(os.tmpdir(), `atelier-zip-link-${process.pid}.zip`);
    try {
      await writeFile(zipPath, await session.zip());
      const info = execFileSync('zipinfo', [zipPath, 'etc-link'], { encoding: 'utf8' });
      expect(info).toMatch(/^l/);
      expect(execFileSync('unzip', ['-p', zipPath, 'etc-link'], { encoding: 'utf8' })).toBe('/etc');
      expect(execFileSync('unzip', ['-l', zipPath], { encoding: 'utf8' })).not.toContain('etc-link/passwd');
    } finally {
      await rm(path.join(session.workspaceDir, 'etc-link'));
      await rm(zipPath, { force: true });
    }
  });
});
