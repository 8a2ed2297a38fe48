// The built-in editor's open files (spec §3: file states with path, savedContent,
// unsavedContent; the active path). A file is changed while its unsaved content differs from
// what was saved.

export interface FileState {
  path: string;
  savedContent: string;
  unsavedContent: string;
}

export interface EditorFiles {
  files: readonly FileState[];
  activePath: string | null;
}

export type EditorFilesAction =
  | { type: 'opened'; path: string; content: string }
  | { type: 'edited'; path: string; content: string }
  | { type: 'saved'; path: string; content: string }
  | { type: 'activated'; path: string }
  | { type: 'closed'; path: string };

export const noFilesOpen: EditorFiles = { files: [], activePath: null };

export const isChanged = (file: FileState) => file.savedContent !== file.unsavedContent;

const update = (files: readonly FileState[], path: string, change: (file: FileState) => FileState) =>
  files.map((file) => (file.path === path ? change(file) : file));

export function editorFiles(state: EditorFiles, action: EditorFilesAction): EditorFiles {
  switch (action.type) {
    case 'opened':
      // Opening a file already open only brings it forward: its unsaved edits stay.
      if (state.files.some((file) => file.path === action.path)) return { ...state, activePath: action.path };
      return {
        files: [...state.files, { path: action.path, savedContent: action.content, unsavedContent: action.content }],
        activePath: action.path,
      };
    case 'edited':
      return {
        ...state,
        files: update(state.files, action.path, (file) => ({ ...file, unsavedContent: action.content })),
      };
    case 'saved':
      return {
        ...state,
        files: update(state.files, action.path, (file) => ({ ...file, savedContent: action.content })),
      };
    case 'activated':
      return state.files.some((file) => file.path === action.path) ? { ...state, activePath: action.path } : state;
    case 'closed': {
      const index = state.files.findIndex((file) => file.path === action.path);
      if (index === -1) return state;
      const files = state.files.filter((file) => file.path !== action.path);
      const activePath =
        state.activePath === action.path ? (files[Math.min(index, files.length - 1)]?.path ?? null) : state.activePath;
      return { files, activePath };
    }
  }
}

/** A tree entry's path: directories from list-files end with '/'. */
export const childPath = (directory: string, name: string) => `${directory}${name}`;
export const isDirectory = (path: string) => path.endsWith('/');
/** The last part of a path, for a tree row or a tab. */
export const baseName = (path: string) => path.replace(/\/$/, '').split('/').pop() ?? path;

/** Whether the VS Code url is served from another origin than the page (the frame may then be refused). */
export function vscodeFrame(url: string, pageOrigin: string): { url: string; crossOrigin: boolean } | null {
  try {
    const parsed = new URL(url, pageOrigin);
    return { url: parsed.toString(), crossOrigin: parsed.origin !== pageOrigin };
  } catch {
    return null;
  }
}
