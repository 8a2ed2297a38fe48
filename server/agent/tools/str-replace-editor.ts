import { z } from 'zod';
import type { EditorInput } from '../../runtime/types.ts';
import {
  numberArgument,
  OUTPUT_LIMIT,
  securityRiskArgument,
  truncateMiddle,
  zodTool,
  type ToolOutcome,
} from './tool.ts';

const schema = z.object({
  command: z
    .enum(['view', 'create', 'str_replace', 'insert', 'undo_edit'])
    .describe('view, create, str_replace, insert or undo_edit.'),
  path: z
    .string()
    .min(1)
    .describe('Path of the file or directory, absolute (inside the workspace) or relative to the workspace.'),
  file_text: z.string().optional().describe('create: the content of the new file.'),
  old_str: z
    .string()
    .optional()
    .describe('str_replace: the exact text to replace; it must occur exactly once, whitespace included.'),
  new_str: z.string().optional().describe('str_replace: the replacement text. insert: the text to insert.'),
  insert_line: numberArgument(z.number().int().min(0))
    .optional()
    .describe('insert: the line after which new_str is inserted (0 inserts at the top).'),
  // A plain array of integers, checked here: some OpenAI-compatible gateways refuse a tuple's prefixItems.
  view_range: z
    .array(numberArgument(z.number().int()))
    .refine(
      (range) => range.length === 2 && range[0]! >= 1 && (range[1] === -1 || range[1]! >= range[0]!),
      'view_range must be [start, end]: two line numbers, start at least 1 and end at least start, or -1 for the end of the file',
    )
    .transform((range) => range as [number, number])
    .optional()
    .describe('view of a file: the first and last line to show, [start, end]; end -1 means to the end of the file.'),
  security_risk: securityRiskArgument,
});

type EditorArguments = z.output<typeof schema>;

function editorInput(input: EditorArguments): EditorInput {
  const { security_risk: _risk, ...rest } = input;
  return rest;
}

export const strReplaceEditor = zodTool({
  name: 'str_replace_editor',
  description:
    'View, create and edit files. `view` shows a file with line numbers (or lists a directory two levels deep); ' +
    '`create` writes a new file; `str_replace` replaces one exact, unique occurrence of old_str with new_str; ' +
    '`insert` inserts new_str after insert_line; `undo_edit` reverts the last edit of the file. ' +
    'Include enough surrounding lines in old_str to make it unique.',
  actionKind: 'edit',
  schema,
  describe(input) {
    if (input.command === 'view') {
      const [start, end] = input.view_range ?? [1, -1];
      return {
        action: 'read',
        message: `Reading file: ${input.path}`,
        args: { path: input.path, start: start - 1, end, view_range: input.view_range ?? null, impl_source: 'oh_aci' },
      };
    }
    return {
      action: 'edit',
      message: `Editing file: ${input.path}`,
      args: {
        path: input.path,
        command: input.command,
        file_text: input.file_text ?? null,
        old_str: input.old_str ?? null,
        new_str: input.new_str ?? null,
        insert_line: input.insert_line ?? null,
        impl_source: 'oh_aci',
      },
    };
  },
  async run(input, { runtime }): Promise<ToolOutcome> {
    const result = await runtime.editor(editorInput(input));
    const content = truncateMiddle(result.output, OUTPUT_LIMIT);
    if (input.command === 'view') {
      return {
        observation: 'read',
        content,
        message: `I read the file ${input.path}.`,
        extras: { path: input.path, impl_source: 'oh_aci' },
      };
    }
    return {
      observation: 'edit',
      content,
      message: `I edited the file ${input.path}.`,
      extras: {
        path: input.path,
        diff: result.diff,
        prev_exist: result.oldContent !== null,
        old_content: result.oldContent,
        new_content: result.newContent,
        impl_source: 'oh_aci',
      },
    };
  },
});
