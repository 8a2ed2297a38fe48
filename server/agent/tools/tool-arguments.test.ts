import { describe, expect, it } from 'vitest';
import { executeBash } from './execute-bash.ts';
import { finish } from './finish.ts';
import { strReplaceEditor } from './str-replace-editor.ts';
import { ToolInputError } from './tool.ts';

describe('tool arguments', () => {
  it('take a flag as a JSON boolean or as the strings OpenHands-trained models send', () => {
    expect(executeBash.parse({ command: 'C-c', is_input: 'true' })).toMatchObject({ is_input: true });
    expect(executeBash.parse({ command: 'ls', is_input: 'false' })).toMatchObject({ is_input: false });
    expect(executeBash.parse({ command: 'C-c', is_input: true })).toMatchObject({ is_input: true });
    expect(() => executeBash.parse({ command: 'ls', is_input: 'yes' })).toThrow(ToolInputError);
    // The model is still told the flag is a boolean.
    expect(JSON.stringify(executeBash.parameters)).toContain('"boolean"');
  });

  it('take null as an absent argument, for every built-in tool', () => {
    expect(
      strReplaceEditor.parse({ command: 'view', path: 'a.txt', view_range: null, file_text: null, insert_line: null }),
    ).toEqual({ command: 'view', path: 'a.txt' });
    expect(executeBash.parse({ command: 'ls', is_input: null, timeout: null, security_risk: null })).toEqual({
      command: 'ls',
    });
    expect(() => strReplaceEditor.parse({ command: null, path: 'a.txt' })).toThrow(ToolInputError);
  });

  it('take a number sent as a string, and nothing else in its place', () => {
    expect(strReplaceEditor.parse({ command: 'insert', path: 'a', new_str: 'x', insert_line: '1' })).toMatchObject({
      insert_line: 1,
    });
    expect(strReplaceEditor.parse({ command: 'view', path: 'a', view_range: ['2', ' 5 '] })).toMatchObject({
      view_range: [2, 5],
    });
    expect(executeBash.parse({ command: 'make', timeout: '30' })).toMatchObject({ timeout: 30 });
    expect(() => strReplaceEditor.parse({ command: 'insert', path: 'a', new_str: 'x', insert_line: 'one' })).toThrow(
      ToolInputError,
    );
  });

  it('send view_range as a plain array of integers, and check its shape on arrival', () => {
    const schema = JSON.stringify(strReplaceEditor.parameters);
    expect(schema).not.toContain('prefixItems');
    expect(
      (strReplaceEditor.parameters as { properties: Record<string, unknown> }).properties['view_range'],
    ).toMatchObject({ type: 'array', items: { type: 'integer' } });
    expect(() => strReplaceEditor.parse({ command: 'view', path: 'a', view_range: [0, 3] })).toThrow(
      /view_range must be \[start, end\]/,
    );
    expect(() => strReplaceEditor.parse({ command: 'view', path: 'a', view_range: [1, 2, 3] })).toThrow(ToolInputError);
    expect(strReplaceEditor.parse({ command: 'view', path: 'a', view_range: [3, -1] })).toMatchObject({
      view_range: [3, -1],
    });
  });

  it('take finish’s task_completed as the contract’s strings or as a boolean', () => {
    expect(finish.parse({ message: 'Done.', task_completed: true })).toMatchObject({ task_completed: 'true' });
    expect(finish.parse({ message: 'Done.', task_completed: 'partial' })).toMatchObject({ task_completed: 'partial' });
    expect(() => finish.parse({ message: 'Done.', task_completed: 'maybe' })).toThrow(ToolInputError);
  });
});
