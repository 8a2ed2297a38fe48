import { describe, expect, it } from 'vitest';
import { languageOf } from './code-language.ts';

describe('file language', () => {
  it('follows the extension', () => {
    expect(languageOf('src/app.ts')).toBe('typescript');
    expect(languageOf('src/App.TSX')).toBe('tsx');
    expect(languageOf('main.py')).toBe('python');
    expect(languageOf('docs/README.md')).toBe('markdown');
    expect(languageOf('index.html')).toBe('html');
    expect(languageOf('styles/site.css')).toBe('css');
    expect(languageOf('package.json')).toBe('json');
    expect(languageOf('lib/index.mjs')).toBe('javascript');
  });
  it('is none for other files, dotfiles and names without an extension', () => {
    expect(languageOf('Makefile')).toBeNull();
    expect(languageOf('.env')).toBeNull();
    expect(languageOf('notes.txt')).toBeNull();
  });
});
