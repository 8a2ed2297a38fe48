import { chown, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempRuntime, type TempRuntime } from '../../../tests/support/temp-runtime.ts';
import type { RuntimeSession } from '../../runtime/types.ts';
import { strReplaceEditor } from './str-replace-editor.ts';

// The agent's editor never damages a file: each case runs the str_replace_editor tool as the
// agent runs it (the model's arguments parsed, then run on a real runtime) and checks the bytes
// on disk after the call, as models trained on OpenHands' str_replace_editor expect its files
// to behave.

let temp: TempRuntime;
let session: RuntimeSession;

beforeAll(async () => {
  temp = await tempRuntime();
  session = await temp.runtime.start('editor-files-test');
});

afterAll(async () => {
  await temp.cleanup();
});

/** One call of the tool, with the arguments as the model sent them. */
const edit = (args: Record<string, unknown>) =>
  strReplaceEditor.run!(strReplaceEditor.parse(args), { runtime: session, signal: new AbortController().signal });
const onDisk = (name: string) => readFile(path.join(session.workspaceDir, name));
/** A file as the sandbox would have written it: owned by the workspace's owner. */
async function put(name: string, bytes: Buffer) {
  const file = path.join(session.workspaceDir, name);
  await writeFile(file, bytes);
  const { uid, gid } = await stat(session.workspaceDir);
  await chown(file, uid, gid);
}

describe('the editor on files that are not plain UTF-8', () => {
  it('keeps a latin-1 file in latin-1: shows its text, matches it, and writes back only what changed', async () => {
    await put('menu.txt', Buffer.from('café crème\nthé\n', 'latin1'));
    const view = await edit({ command: 'view', path: 'menu.txt' });
    expect(view.content).toContain('café crème');
    await edit({ command: 'str_replace', path: 'menu.txt', old_str: 'thé', new_str: 'thé glacé' });
    expect(await onDisk('menu.txt')).toEqual(Buffer.from('café crème\nthé glacé\n', 'latin1'));
    await edit({ command: 'insert', path: 'menu.txt', insert_line: 0, new_str: 'Carte' });
    expect(await onDisk('menu.txt')).toEqual(Buffer.from('Carte\ncafé crème\nthé glacé\n', 'latin1'));
    // What latin-1 cannot hold is refused, the file untouched.
    await expect(edit({ command: 'insert', path: 'menu.txt', insert_line: 0, new_str: '€ ☕' })).rejects.toThrow(
      /cannot hold/,
    );
    expect(await onDisk('menu.txt')).toEqual(Buffer.from('Carte\ncafé crème\nthé glacé\n', 'latin1'));
    await edit({ command: 'undo_edit', path: 'menu.txt' });
    expect(await onDisk('menu.txt')).toEqual(Buffer.from('café crème\nthé glacé\n', 'latin1'));
  });

  it('keeps a windows-1251 file in windows-1251', async () => {
    // "Привет, мир" and "Проверка связи" in windows-1251: enough text for the detector.
    const cp1251 = (text: string) =>
      Buffer.from([...text].map((c) => (c >= 'А' && c <= 'я' ? c.charCodeAt(0) - 0x410 + 0xc0 : c.charCodeAt(0))));
    const before = 'Привет, мир! Проверка связи, всё работает.\nЭто тестовая строка для проверки кодировки.\n';
    await put('ru.txt', cp1251(before.replace('ё', 'е')));
    const view = await edit({ command: 'view', path: 'ru.txt' });
    expect(view.content).toContain('Привет, мир!');
    await edit({ command: 'str_replace', path: 'ru.txt', old_str: 'мир', new_str: 'друг' });
    expect(await onDisk('ru.txt')).toEqual(cp1251(before.replace('ё', 'е').replace('мир', 'друг')));
  });

  it('refuses a binary file, leaving its bytes as they were', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    await put('logo.png', png);
    await expect(edit({ command: 'view', path: 'logo.png' })).rejects.toThrow(/appears to be binary/);
    await expect(edit({ command: 'str_replace', path: 'logo.png', old_str: 'IHDR', new_str: 'IHDX' })).rejects.toThrow(
      /appears to be binary/,
    );
    expect(await onDisk('logo.png')).toEqual(png);
  });

  it('shows and matches a CRLF file with LF, and writes CRLF back', async () => {
    await put('list.txt', Buffer.from('alpha\r\nbeta\r\ngamma\r\n'));
    const view = await edit({ command: 'view', path: 'list.txt' });
    expect(view.content).not.toContain('\r');
    await edit({ command: 'str_replace', path: 'list.txt', old_str: 'beta\ngamma', new_str: 'beta\ndelta' });
    expect((await onDisk('list.txt')).toString()).toBe('alpha\r\nbeta\r\ndelta\r\n');
  });

  it('keeps a UTF-8 byte-order mark', async () => {
    await put('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\ntwo\n')]));
    await edit({ command: 'str_replace', path: 'bom.txt', old_str: 'two', new_str: 'zwei' });
    expect(await onDisk('bom.txt')).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\nzwei\n')]),
    );
  });

  it('refuses a file over 10 MB without reading it, with what to do instead', async () => {
    await put('huge.log', Buffer.alloc(0));
    await truncate(path.join(session.workspaceDir, 'huge.log'), 700 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    await expect(edit({ command: 'view', path: 'huge.log', view_range: [1, 1] })).rejects.toThrow(
      /is 700\.0 MB, over the editor's 10 MB: view parts of it with execute_bash/,
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('retries an old_str with stray whitespace around it stripped', async () => {
    await put('app.js', Buffer.from('const a = 1;\nconst b = 2;\n'));
    await edit({
      command: 'str_replace',
      path: 'app.js',
      old_str: '\nconst b = 2;\n\n',
      new_str: 'const b = 3;\n',
    });
    expect((await onDisk('app.js')).toString()).toBe('const a = 1;\nconst b = 3;\n');
  });
});

describe('the editor on directories and long files', () => {
  it('says how many hidden entries a listing leaves out, and how to see them', async () => {
    await session.writeFile('listed/.env', 'X=1');
    await session.writeFile('listed/.cache/a', 'a');
    await session.writeFile('listed/main.ts', '');
    const view = await edit({ command: 'view', path: 'listed' });
    const dir = path.join(session.workspaceDir, 'listed');
    expect(view.content).toContain(`${dir}/main.ts`);
    expect(view.content).not.toContain('.env');
    expect(view.content).toMatch(
      new RegExp(
        `2 hidden files/directories in this directory are excluded\\. You can use 'ls -la ${dir}' to see them\\.$`,
      ),
    );
  });

  it('lists a linked directory under the path asked for, not its target', async () => {
    await session.writeFile('real/inside.txt', 'x');
    await session.runCommand({ command: 'ln -s real linked' });
    const view = await edit({ command: 'view', path: 'linked' });
    expect(view.content).toContain(`${path.join(session.workspaceDir, 'linked')}/inside.txt`);
    expect(view.content).not.toContain('/real/');
  });

  it('clips a long file at a whole line, with the note models know', async () => {
    await put('long.txt', Buffer.from(Array.from({ length: 5_000 }, (_, i) => `line number ${i + 1}`).join('\n')));
    const view = await edit({ command: 'view', path: 'long.txt' });
    const [shown, note] = view.content.split('\n<response clipped>');
    expect(note).toMatch(/^<NOTE>To save on context only part of this output has been shown to you\./);
    expect(shown?.split('\n').at(-1)).toMatch(/^\s+\d+\tline number \d+$/);
    const last = shown?.split('\n').at(-1)?.trim().split('\t') ?? [];
    expect(last[1]).toBe(`line number ${last[0]}`);
  });
});
