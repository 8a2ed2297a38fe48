import { describe, expect, it } from 'vitest';
import { terminalText } from './terminal-io.ts';

describe('the Agent view of the terminal tab', () => {
  const at = '2026-01-01T00:00:00Z';
  it('prints commands after the prompt and output with CRLF', () => {
    expect(terminalText({ id: 1, source: 'agent', timestamp: at, action: 'run', args: { command: 'ls' } })).toBe(
      '$ ls\r\n',
    );
    expect(terminalText({ id: 2, source: 'agent', timestamp: at, observation: 'run', content: 'a\nb' })).toBe(
      'a\r\nb\r\n',
    );
    expect(terminalText({ id: 3, source: 'agent', timestamp: at, action: 'message' })).toBe('');
  });
  it('prints a command another client ran in the agent’s shell, hidden from the chat', () => {
    const sent = {
      id: 1,
      source: 'user' as const,
      timestamp: at,
      action: 'run' as const,
      args: { command: 'pwd', hidden: true },
    };
    expect(terminalText(sent)).toBe('$ pwd\r\n');
  });
});
