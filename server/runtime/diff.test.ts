import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './diff.ts';

describe('unifiedDiff', () => {
  it('prints a changed line with context as diff -u does', () => {
    expect(unifiedDiff('f.txt', 'a\nb\nc\n', 'a\nB\nc\n')).toBe(
      '--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
    );
  });

  it('splits distant changes into hunks', () => {
    const before = Array.from({ length: 20 }, (_, i) => `${i + 1}\n`).join('');
    const after = before.replace('2\n', 'two\n').replace('18\n', 'eighteen\n');
    const diff = unifiedDiff('n', before, after);
    expect(diff.match(/^@@ .* @@$/gm)).toEqual(['@@ -1,5 +1,5 @@', '@@ -15,6 +15,6 @@']);
  });

  it('shows created and deleted files against /dev/null', () => {
    expect(unifiedDiff('new', null, 'x\n')).toBe('--- /dev/null\n+++ b/new\n@@ -0,0 +1 @@\n+x\n');
    expect(unifiedDiff('old', 'x\ny\n', null)).toBe('--- a/old\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n');
  });

  it('marks a missing final newline and is empty without changes', () => {
    expect(unifiedDiff('f', 'a', 'a\n')).toBe('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n');
    expect(unifiedDiff('f', 'same\n', 'same\n')).toBe('');
  });
});
