import { describe, expect, it } from 'vitest';
import { capText, completeLength, terminalText } from './terminal-text.ts';

describe('terminalText', () => {
  it('removes colours, titles and other escapes', () => {
    expect(terminalText('\x1b[1;31mred\x1b[0m \x1b]0;title\x07plain\x1b(B\x07')).toBe('red plain');
  });

  it('turns CRLF into newlines and keeps what a carriage return overwrote last', () => {
    expect(terminalText('a\r\nb\r\r\n')).toBe('a\nb\n');
    expect(terminalText(' 10%\r 50%\r100%\ndone')).toBe('100%\ndone');
  });
});

describe('completeLength', () => {
  it('holds back an escape sequence that has not fully arrived', () => {
    expect(completeLength('text\x1b[3')).toBe(4);
    expect(completeLength('text\x1b]7770;abc')).toBe(4);
    expect(completeLength('text\x1b[31mred')).toBe(12);
    expect(completeLength('plain')).toBe(5);
  });
});

describe('capText', () => {
  it('keeps head and tail of a long text with a note', () => {
    const capped = capText(`${'a'.repeat(100)}${'b'.repeat(100)}`, 50);
    expect(capped.startsWith('a'.repeat(25))).toBe(true);
    expect(capped.endsWith('b'.repeat(25))).toBe(true);
    expect(capped).toContain('150 characters cut');
    expect(capText('short', 50)).toBe('short');
  });
});
