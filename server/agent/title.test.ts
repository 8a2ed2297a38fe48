import { describe, expect, it } from 'vitest';
import { cleanTitle, fallbackTitle, TITLE_LIMIT } from './title.ts';

describe('cleanTitle', () => {
  it('strips quotes, a "Title:" prefix and final punctuation', () => {
    expect(cleanTitle('"Todo app in React."')).toBe('Todo app in React');
    expect(cleanTitle('Title: **Fix the login bug**')).toBe('Fix the login bug');
  });

  it('keeps the first line only and at most 60 characters', () => {
    expect(cleanTitle('Build a blog\nwith comments')).toBe('Build a blog');
    const long = cleanTitle('A'.repeat(100));
    expect(long).toHaveLength(TITLE_LIMIT);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('fallbackTitle', () => {
  it('is the first line of the message, cut at 50 characters', () => {
    expect(fallbackTitle('Make a snake game\nin Python please')).toBe('Make a snake game');
    const long = fallbackTitle('x'.repeat(80));
    expect(long).toHaveLength(50);
    expect(long.endsWith('…')).toBe(true);
  });
});
