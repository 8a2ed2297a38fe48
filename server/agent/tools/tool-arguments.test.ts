import { describe, expect, it } from 'vitest';
import { executeBash } from './execute-bash.ts';
import { finish } from './finish.ts';
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

  it('take finish’s task_completed as the contract’s strings or as a boolean', () => {
    expect(finish.parse({ message: 'Done.', task_completed: true })).toMatchObject({ task_completed: 'true' });
    expect(finish.parse({ message: 'Done.', task_completed: 'partial' })).toMatchObject({ task_completed: 'partial' });
    expect(() => finish.parse({ message: 'Done.', task_completed: 'maybe' })).toThrow(ToolInputError);
  });
});
