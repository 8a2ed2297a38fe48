import path from 'node:path';
import { unifiedDiff } from './diff.ts';
import type { WorkspaceFiles } from './files.ts';
import { decodeText, EDITOR_FILE_LIMIT_BYTES, encodeText, UTF8_LF, type TextFile } from './text-file.ts';
import type { EditorInput, EditorResult } from './types.ts';

const SNIPPET_CONTEXT = 4;
const VIEW_LIMIT = 16_000;

/** `cat -n` numbering: the line number right-aligned in six columns, a tab, the line. */
function numbered(text: string, firstLine = 1): string {
  return text
    .split('\n')
    .map((line, index) => `${String(index + firstLine).padStart(6)}\t${line}`)
    .join('\n');
}

/** Line count as an editor shows it: a final newline ends the last line rather than starting another. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** A long view cut at the last whole line within the limit, with the note models trained on OpenHands know. */
function clipped(output: string): string {
  if (output.length <= VIEW_LIMIT) return output;
  const end = output.lastIndexOf('\n', VIEW_LIMIT);
  return (
    `${output.slice(0, end > 0 ? end : VIEW_LIMIT)}\n<response clipped><NOTE>To save on context only part of this ` +
    'output has been shown to you. Search the file with `grep -n` to find the line numbers you need, then view them with view_range.</NOTE>'
  );
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

function required<T>(value: T | undefined, name: string, command: string): T {
  if (value === undefined) throw new Error(`Parameter \`${name}\` is required for command: ${command}`);
  return value;
}

/**
 * The agent's file editor, with the semantics of OpenHands' str_replace_editor (view,
 * create, str_replace, insert, undo_edit) so models trained on it use it well. Errors
 * are thrown with the message the model should read.
 */
export class Editor {
  /** Earlier contents of each edited file, newest last; null means the file did not exist. */
  private readonly history = new Map<string, (TextFile | null)[]>();

  constructor(private readonly files: WorkspaceFiles) {}

  async run(input: EditorInput): Promise<EditorResult> {
    const target = await this.files.resolve(input.path);
    switch (input.command) {
      case 'view': {
        const output = await this.view(target, input.view_range, path.resolve(this.files.root, input.path));
        return { output, diff: '', oldContent: null, newContent: null };
      }
      case 'create':
        return this.create(target, required(input.file_text, 'file_text', 'create'));
      case 'str_replace':
        return this.replace(target, required(input.old_str, 'old_str', 'str_replace'), input.new_str ?? '');
      case 'insert':
        return this.insert(
          target,
          required(input.insert_line, 'insert_line', 'insert'),
          required(input.new_str, 'new_str', 'insert'),
        );
      case 'undo_edit':
        return this.undo(target);
      default:
        throw new Error(`Unknown editor command: ${String(input.command)}`);
    }
  }

  private relative(target: string): string {
    return path.relative(this.files.root, target) || '.';
  }

  private async existing(target: string): Promise<'file' | 'directory'> {
    const found = await this.files.kind(target);
    if (!found) throw new Error(`The path ${target} does not exist. Please provide a valid path.`);
    return found;
  }

  /** The file as text in its own encoding; a binary file or one over 10 MB is refused with the reason. */
  private async readText(target: string): Promise<TextFile> {
    if ((await this.existing(target)) === 'directory')
      throw new Error(`The path ${target} is a directory; this command needs a file.`);
    try {
      return decodeText(await this.files.readBytes(target, EDITOR_FILE_LIMIT_BYTES), target);
    } catch (error) {
      const { code, size } = error as NodeJS.ErrnoException & { size?: number };
      if (code !== 'EFBIG') throw error;
      throw new Error(
        `The file ${target} is ${((size ?? 0) / 1024 / 1024).toFixed(1)} MB, over the editor's 10 MB: view parts of it with execute_bash (\`sed -n '1,100p'\`, \`grep -n\`).`,
        { cause: error },
      );
    }
  }

  /** Writes `text` in the file's format (and so never rewrites what the edit did not touch). */
  private async writeText(target: string, text: string, format: TextFile['format']): Promise<void> {
    await this.files.write(target, encodeText(text, format));
  }

  /** `asked`: the path as the model wrote it, made absolute (a directory is listed under it, links and all). */
  private async view(target: string, range: [number, number] | undefined, asked = target): Promise<string> {
    if ((await this.existing(target)) === 'directory') {
      if (range) throw new Error('The `view_range` parameter is not allowed when `path` points to a directory.');
      const { paths, hidden } = await this.files.tree(target, 2, asked);
      const note =
        hidden > 0
          ? `\n\n${hidden} hidden files/directories in this directory are excluded. You can use 'ls -la ${asked}' to see them.`
          : '';
      return `${clipped(`Here's the files and directories up to 2 levels deep in ${asked}, excluding hidden items:\n${paths.join('\n')}`)}${note}`;
    }
    const { text } = await this.readText(target);
    let shown = text;
    let first = 1;
    let note = '';
    if (range) {
      const total = lineCount(text);
      const [start, asked] = range;
      // Models trained on OpenHands ask for more lines than a file has: shown up to its end, with a note.
      const end = asked > total ? total : asked;
      if (end !== asked) note = `\nNOTE: The file has only ${total} lines, so lines ${start} to ${total} are shown.`;
      if (!Number.isInteger(start) || start < 1 || start > Math.max(total, 1))
        throw new Error(
          `Invalid \`view_range\`: ${JSON.stringify(range)}. Its first element \`${start}\` should be within the range of lines of the file: [1, ${total}]`,
        );
      if (end !== -1 && (!Number.isInteger(end) || end < start || end > total))
        throw new Error(
          `Invalid \`view_range\`: ${JSON.stringify(range)}. Its second element \`${end}\` should be -1 or within [${start}, ${total}]`,
        );
      shown = text
        .split('\n')
        .slice(start - 1, end === -1 ? undefined : end)
        .join('\n');
      first = start;
    }
    const output = clipped(numbered(shown.replace(/\n$/, ''), first));
    return `Here's the result of running \`cat -n\` on ${target}:\n${output}${note}`;
  }

  private remember(target: string, content: TextFile | null): void {
    const stack = this.history.get(target) ?? [];
    stack.push(content);
    this.history.set(target, stack);
  }

  private result(target: string, output: string, oldContent: string | null, newContent: string | null): EditorResult {
    return { output, diff: unifiedDiff(this.relative(target), oldContent, newContent), oldContent, newContent };
  }

  private snippet(target: string, content: string, firstChangedLine: number, changedLines: number): string {
    const start = Math.max(1, firstChangedLine - SNIPPET_CONTEXT);
    const end = firstChangedLine + changedLines - 1 + SNIPPET_CONTEXT;
    const lines = content
      .split('\n')
      .slice(start - 1, end)
      .join('\n');
    return (
      `The file ${target} has been edited. Here's the result of running \`cat -n\` on a snippet of ${target}:\n` +
      `${numbered(lines, start)}\nReview the changes and make sure they are as expected. Edit the file again if necessary.`
    );
  }

  private async create(target: string, text: string): Promise<EditorResult> {
    if ((await this.files.kind(target)) !== null)
      throw new Error(`File already exists at: ${target}. Cannot overwrite files using command \`create\`.`);
    await this.writeText(target, text, UTF8_LF);
    this.remember(target, null);
    return this.result(target, `File created successfully at: ${target}`, null, text);
  }

  private async replace(target: string, oldStr: string, newStr: string): Promise<EditorResult> {
    if (oldStr === '') throw new Error('Parameter `old_str` must not be empty.');
    if (oldStr === newStr) throw new Error('No replacement was performed. `new_str` and `old_str` must be different.');
    const file = await this.readText(target);
    // As OpenHands does: an old_str with stray whitespace around it that appears only without it is retried stripped.
    const stripped = oldStr.trim();
    if (!file.text.includes(oldStr) && stripped !== oldStr && stripped !== '' && file.text.includes(stripped))
      return this.replaceIn(target, file, stripped, newStr.trim());
    return this.replaceIn(target, file, oldStr, newStr);
  }

  private async replaceIn(target: string, file: TextFile, oldStr: string, newStr: string): Promise<EditorResult> {
    const content = file.text;
    const found: number[] = [];
    for (let at = content.indexOf(oldStr); at !== -1; at = content.indexOf(oldStr, at + oldStr.length)) found.push(at);
    const [first] = found;
    if (first === undefined)
      throw new Error(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${target}.`);
    if (found.length > 1) {
      const lines = found.map((at) => lineOf(content, at));
      throw new Error(
        `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines ${JSON.stringify(lines)}. Please ensure it is unique.`,
      );
    }
    const updated = content.slice(0, first) + newStr + content.slice(first + oldStr.length);
    await this.writeText(target, updated, file.format);
    this.remember(target, file);
    const output = this.snippet(target, updated, lineOf(content, first), newStr.split('\n').length);
    return this.result(target, output, content, updated);
  }

  private async insert(target: string, after: number, text: string): Promise<EditorResult> {
    const file = await this.readText(target);
    const content = file.text;
    const total = lineCount(content);
    if (!Number.isInteger(after) || after < 0 || after > total) {
      throw new Error(
        `Invalid \`insert_line\` parameter: ${after}. It should be within the range of lines of the file: [0, ${total}]`,
      );
    }
    const lines = content.split('\n');
    lines.splice(after, 0, ...text.split('\n'));
    const updated = lines.join('\n');
    await this.writeText(target, updated, file.format);
    this.remember(target, file);
    const output = this.snippet(target, updated, after + 1, text.split('\n').length);
    return this.result(target, output, content, updated);
  }

  private async undo(target: string): Promise<EditorResult> {
    const previous = this.history.get(target)?.pop();
    if (previous === undefined) throw new Error(`No edit history found for ${target}.`);
    const current = (await this.readText(target).catch(() => null))?.text ?? null;
    if (previous === null) {
      await this.files.remove(target);
      return this.result(
        target,
        `Last edit to ${target} undone successfully: the file it created is removed.`,
        current,
        null,
      );
    }
    await this.writeText(target, previous.text, previous.format);
    return this.result(
      target,
      `Last edit to ${target} undone successfully. ${await this.view(target, undefined)}`,
      current,
      previous.text,
    );
  }
}
