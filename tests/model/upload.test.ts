import { afterAll, describe, expect, it } from 'vitest';
import { type AnyEventObject } from 'xstate';
import {
  isAcceptedFile,
  imageTypeOf,
  isImage,
  MAX_FILE_BYTES,
  uploadMachine,
  validateFiles,
  type FileLike,
  type UploadEvent,
  type UploadRequest,
  type UploadResult,
} from '../../machines/upload.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const MB = 1024 * 1024;
const file = (name: string, size = MB, type = ''): FileLike => ({ name, size, type });

const archive = [file('project.zip', 3 * MB)];
const screenshot = file('screen.png', MB, 'image/png');
const mixed = [file('app.ts'), screenshot];
const result: UploadResult = {
  uploaded_files: ['project.zip'],
  skipped_files: [
    { name: '.env', reason: 'Secrets are not uploaded.' },
    { name: 'node_modules.zip', reason: 'The archive could not be read.' },
  ],
};

const events: (UploadEvent | AnyEventObject)[] = [
  { type: 'SELECT_FILES', files: archive, message: 'Please review this project' },
  { type: 'SELECT_FILES', files: [screenshot] },
  { type: 'SELECT_FILES', files: mixed },
  { type: 'SELECT_FILES', files: [] },
  { type: 'SELECT_FILES', files: [file('dump.tar.gz', 201 * MB)] },
  { type: 'SELECT_FILES', files: [file('a.zip', 150 * MB), file('b.zip', 60 * MB)] },
  { type: 'SELECT_FILES', files: [file('setup.exe')] },
  { type: 'DROP_FILES', files: archive },
  { type: 'DROP_FILES', files: [screenshot] },
  { type: 'DROP_FILES', files: mixed },
  { type: 'DROP_FILES', files: [file('setup.exe')] },
  { type: 'CREDITS_CHANGED', balance: 0.05 },
  { type: 'UPLOAD_PROGRESS', progress: { loaded: 1_500_000, total: 3 * MB } },
  { type: 'UPLOAD_DONE', result },
  { type: 'UPLOAD_FAILED' },
  { type: 'CANCEL' },
  { type: 'DISMISS' },
];

const fakes: FakeSideEffects = {
  promises: [],
  callbacks: { uploadFiles: ['UPLOAD_PROGRESS', 'UPLOAD_DONE', 'UPLOAD_FAILED'] },
  actions: ['attachImages', 'announceSkipped', 'announceUploaded', 'announceFailure'],
};

function expectSideEffects({ event, before, after, effects, started }: StepRecord) {
  const files = (event as unknown as { files?: FileLike[] }).files ?? [];
  switch (event.type) {
    case 'SELECT_FILES':
    case 'DROP_FILES': {
      const ignored = event.type === 'DROP_FILES' && before.context.balance !== null && before.context.balance < 0.1;
      const checked = validateFiles(files);
      if (ignored) {
        expect(after.value).toEqual(before.value);
        expect(effects).toEqual([]);
      } else if (!checked.ok) {
        expect(after.matches('invalid')).toBe(true);
        expect(after.context.error).toEqual(checked.error);
        expect(effects).toEqual([]);
      } else {
        expect(effects).toEqual(checked.images.length > 0 ? ['attachImages'] : []);
        expect(after.matches(checked.files.length > 0 ? 'uploading' : 'idle')).toBe(true);
      }
      break;
    }
    case 'UPLOAD_DONE':
      // One toast per skipped file, then the workspace is told.
      expect(effects).toEqual(['announceSkipped', 'announceSkipped', 'announceUploaded']);
      expect(after.context.result).toEqual(result);
      break;
    case 'UPLOAD_FAILED':
      expect(effects).toEqual(['announceFailure']);
      expect(after.context.error).toEqual({ key: 'upload.failed' });
      break;
    default:
      expect(effects).toEqual([]);
  }
  for (const { src, input } of started) {
    if (src === 'uploadFiles') {
      const request = input as UploadRequest;
      expect(request.files.every((candidate) => !isImage(candidate))).toBe(true);
      expect(request.message).toBe(
        event.type === 'SELECT_FILES' ? ((event as unknown as { message?: string }).message ?? null) : null,
      );
    }
  }
}

const coverage = new Coverage(uploadMachine);
let pathCount = 0;

describe('upload machine, every edge of its graph', () => {
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(uploadMachine, { events }));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(uploadMachine, path, { fakes, coverage, expectStep: expectSideEffects });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('upload validation', () => {
  it('needs at least one file', () => {
    expect(validateFiles([])).toEqual({ ok: false, error: { key: 'upload.noFiles' } });
  });

  it('refuses each file over 200 MB, naming them', () => {
    expect(validateFiles([file('a.zip', MAX_FILE_BYTES)]).ok).toBe(true);
    expect(validateFiles([file('a.zip', MAX_FILE_BYTES + 1), file('b.txt'), file('c.zip', 300 * MB)])).toEqual({
      ok: false,
      error: { key: 'upload.fileTooLarge', params: { names: 'a.zip, c.zip' } },
    });
  });

  it('refuses more than 200 MB together, saying the total', () => {
    expect(validateFiles([file('a.zip', 150 * MB), file('b.zip', 60 * MB)])).toEqual({
      ok: false,
      error: { key: 'upload.totalTooLarge', params: { size: '210.00' } },
    });
    expect(validateFiles([file('a.zip', 100 * MB), file('b.zip', 100 * MB)]).ok).toBe(true);
  });

  it('accepts the archives and source or text files of the list, keeps images apart, refuses others', () => {
    for (const name of [
      'a.zip',
      'a.tar',
      'a.tar.gz',
      'a.rar',
      'a.7z',
      'A.TS',
      'b.tsx',
      'c.py',
      'd.yml',
      'e.md',
      'f.txt',
      'g.scss',
      'h.kt',
    ]) {
      expect(isAcceptedFile(file(name)), name).toBe(true);
    }
    expect(isAcceptedFile(file('a.exe'))).toBe(false);
    const checked = validateFiles(mixed);
    expect(checked).toEqual({ ok: true, files: [file('app.ts')], images: [screenshot] });
    expect(validateFiles([file('tool.exe'), file('lib.dll')])).toEqual({
      ok: false,
      error: { key: 'upload.unsupportedType', params: { names: 'tool.exe, lib.dll' } },
    });
  });

  it('names an image’s media type from its extension when the browser gave none', () => {
    expect(imageTypeOf({ name: 'shot.PNG', size: 1, type: '' })).toBe('image/png');
    expect(imageTypeOf({ name: 'photo.jpg', size: 1 })).toBe('image/jpeg');
    expect(imageTypeOf({ name: 'logo.svg', size: 1, type: '' })).toBe('image/svg+xml');
    expect(imageTypeOf({ name: 'x.webp', size: 1, type: 'image/webp' })).toBe('image/webp');
  });
});
