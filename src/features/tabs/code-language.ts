import type { Extension } from '@codemirror/state';
import { loadRetrying } from '../../ui/index.ts';

// The CodeMirror language of a file, by its extension; each language package loads only when a
// file of its kind is shown.

export type CodeLanguage =
  'javascript' | 'typescript' | 'jsx' | 'tsx' | 'python' | 'json' | 'markdown' | 'css' | 'html';

const BY_EXTENSION: Record<string, CodeLanguage> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'jsx',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  py: 'python',
  json: 'json',
  md: 'markdown',
  markdown: 'markdown',
  css: 'css',
  html: 'html',
  htm: 'html',
};

export function languageOf(path: string): CodeLanguage | null {
  const name = path.split('/').pop() ?? '';
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? null;
}

/**
 * The language extension for `path`, or none for other files; none too when its code could not be
 * downloaded (asked again while it fails): the file shows as plain text rather than not at all.
 */
export function languageExtension(path: string): Promise<Extension> {
  const language = languageOf(path);
  return loadRetrying(() => loadLanguage(language)).catch(() => []);
}

async function loadLanguage(language: CodeLanguage | null): Promise<Extension> {
  switch (language) {
    case 'javascript':
      return (await import('@codemirror/lang-javascript')).javascript();
    case 'jsx':
      return (await import('@codemirror/lang-javascript')).javascript({ jsx: true });
    case 'typescript':
      return (await import('@codemirror/lang-javascript')).javascript({ typescript: true });
    case 'tsx':
      return (await import('@codemirror/lang-javascript')).javascript({ typescript: true, jsx: true });
    case 'python':
      return (await import('@codemirror/lang-python')).python();
    case 'json':
      return (await import('@codemirror/lang-json')).json();
    case 'markdown':
      return (await import('@codemirror/lang-markdown')).markdown();
    case 'css':
      return (await import('@codemirror/lang-css')).css();
    case 'html':
      return (await import('@codemirror/lang-html')).html();
    case null:
      return [];
  }
}
