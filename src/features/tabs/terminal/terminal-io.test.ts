import { describe, expect, it } from 'vitest';
import { createLineEditor, terminalText } from './terminal-io.ts';
import type { Event } from '../../../../openapi/types.ts';

describe('terminal line editor', () => {
  it('echoes typed keys and sends the line on Enter', () => {
    const editor = createLineEditor();
    expect(editor.input('l')).toEqual({ echo: 'l', commands: [] });
    expect(editor.input('s')).toEqual({ echo: 's', commands: [] });
    expect(editor.input('\r')).toEqual({ echo: '\r\n', commands: ['ls'] });
  });
  it('handles Backspace, Ctrl+C, empty lines and pasted lines', () => {
    const editor = createLineEditor();
    expect(editor.input('lx\x7f').echo).toBe('lx\b \b');
    expect(editor.input('s\r').commands).toEqual(['ls']);
    expect(editor.input('\x7f').echo).toBe('');
    expect(editor.input('rm -rf\x03').commands).toEqual([]);
    expect(editor.input('\r').commands).toEqual([]);
    expect(editor.input('pwd\recho hi\r').commands).toEqual(['pwd', 'echo hi']);
    expect(editor.input('\x1b[A')).toEqual({ echo: '', commands: [] });
  });
});

describe('terminal output', () => {
  const at = '2026-01-01T00:00:00Z';
  it('prints commands after the prompt and output with CRLF', () => {
    expect(terminalText({ id: 1, source: 'agent', timestamp: at, action: 'run', args: { command: 'ls' } }, false)).toBe(
      '$ ls\r\n',
    );
    expect(terminalText({ id: 2, source: 'agent', timestamp: at, observation: 'run', content: 'a\nb' }, false)).toBe(
      'a\r\nb\r\n',
    );
    expect(terminalText({ id: 3, source: 'agent', timestamp: at, action: 'message' }, false)).toBe('');
  });
  it("prints the user's own commands only from history (they were echoed when typed)", () => {
    const typed: Event = {
      id: 1,
      source: 'user',
      timestamp: at,
      action: 'run',
      args: { command: 'pwd', hidden: true },
    };
    expect(terminalText(typed, false)).toBe('');
    expect(terminalText(typed, true)).toBe('$ pwd\r\n');
  });
});
