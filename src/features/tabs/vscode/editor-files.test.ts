import { describe, expect, it } from 'vitest';
import { baseName, childPath, editorFiles, isChanged, noFilesOpen, vscodeFrame } from './editor-files.ts';

describe('editor files', () => {
  it('opens, edits, saves and closes files', () => {
    let state = editorFiles(noFilesOpen, { type: 'opened', path: 'a.ts', content: 'one' });
    state = editorFiles(state, { type: 'opened', path: 'b.ts', content: 'two' });
    expect(state.activePath).toBe('b.ts');
    state = editorFiles(state, { type: 'edited', path: 'a.ts', content: 'one!' });
    expect(isChanged(state.files[0]!)).toBe(true);
    state = editorFiles(state, { type: 'opened', path: 'a.ts', content: 'stale' });
    expect(state.files[0]).toEqual({ path: 'a.ts', savedContent: 'one', unsavedContent: 'one!' });
    expect(state.activePath).toBe('a.ts');
    state = editorFiles(state, { type: 'saved', path: 'a.ts', content: 'one!' });
    expect(isChanged(state.files[0]!)).toBe(false);
    state = editorFiles(state, { type: 'closed', path: 'a.ts' });
    expect(state).toEqual({
      files: [{ path: 'b.ts', savedContent: 'two', unsavedContent: 'two' }],
      activePath: 'b.ts',
    });
    expect(editorFiles(state, { type: 'closed', path: 'b.ts' })).toEqual(noFilesOpen);
  });
  it('builds tree paths', () => {
    expect(childPath('', 'src/')).toBe('src/');
    expect(childPath('src/', 'app.ts')).toBe('src/app.ts');
    expect(baseName('src/lib/')).toBe('lib');
  });
  it('tells a cross-origin VS Code url and refuses an unreadable one', () => {
    expect(vscodeFrame('https://code.example/?folder=/w', 'https://atelier.example')).toEqual({
      url: 'https://code.example/?folder=/w',
      crossOrigin: true,
    });
    expect(vscodeFrame('/vscode/', 'https://atelier.example')?.crossOrigin).toBe(false);
    expect(vscodeFrame('http://[bad', 'https://atelier.example')).toBeNull();
  });
});
