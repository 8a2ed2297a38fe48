import { and, assign, enqueueActions, fromCallback, setup, type EventObject, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import { CRITICAL_BALANCE } from './agent.ts';
import { notProvidedAction } from './not-provided.ts';
import { ARCHIVE_EXTENSIONS, IMAGE_EXTENSIONS, TEXT_EXTENSIONS, UPLOAD_LIMIT_BYTES } from '../openapi/uploads.ts';

// Files dropped on the chat or picked with the upload button.
//
// Validation (spec §5): at least one file; each at most 200 MB; at most 200 MB together; each an
// archive or a source / text file of the accepted list, or an image. Images are kept apart (they
// go with the message as images); the other files are uploaded (POST upload-files) with
// progress. An invalid set shows an error starting 'Error:'. Each skipped file of the result
// shows its reason in a toast, and the workspace is told (files_uploaded). Drops are ignored
// while credits are insufficient.

export type UploadResult = components['schemas']['UploadResult'];
export type SkippedFile = components['schemas']['SkippedFile'];

export const MAX_FILE_BYTES = UPLOAD_LIMIT_BYTES;
export const MAX_TOTAL_BYTES = UPLOAD_LIMIT_BYTES;
const MB = 1024 * 1024;

/** What the machine needs of a File (a File satisfies it). */
export interface FileLike {
  name: string;
  size: number;
  type?: string;
}

const lowerName = (file: FileLike) => file.name.toLowerCase();
const hasExtension = (file: FileLike, extensions: readonly string[]) =>
  extensions.some((extension) => lowerName(file).endsWith(`.${extension}`));

export const isImage = (file: FileLike) =>
  (file.type ?? '').startsWith('image/') || hasExtension(file, IMAGE_EXTENSIONS);
const TYPE_OF_EXTENSION: Record<string, string> = { jpg: 'image/jpeg', svg: 'image/svg+xml' };
/** The image's media type, from its name when the browser gave none (its data URL must say image/…: the server takes no other). */
export const imageTypeOf = (file: FileLike) => {
  if ((file.type ?? '').startsWith('image/')) return file.type as string;
  const extension = IMAGE_EXTENSIONS.find((candidate) => lowerName(file).endsWith(`.${candidate}`)) ?? 'png';
  return TYPE_OF_EXTENSION[extension] ?? `image/${extension}`;
};
export const isAcceptedFile = (file: FileLike) =>
  hasExtension(file, ARCHIVE_EXTENSIONS) || hasExtension(file, TEXT_EXTENSIONS);

/** An i18n key of the workspace namespace (upload.*) with its values; shown as 'Error: ' + the text. */
export type UploadError =
  | { key: 'upload.noFiles' }
  | { key: 'upload.fileTooLarge'; params: { names: string } }
  | { key: 'upload.totalTooLarge'; params: { size: string } }
  | { key: 'upload.unsupportedType'; params: { names: string } };

export type FileValidation<TFile extends FileLike> =
  { ok: true; files: TFile[]; images: TFile[] } | { ok: false; error: UploadError };

/** Total size in MB as the message says it: two decimals. */
export const megabytes = (bytes: number) => (bytes / MB).toFixed(2);

/** Spec §5's rules, in its order: none selected, a file over 200 MB, over 200 MB together, then a type outside the list. */
export function validateFiles<TFile extends FileLike>(files: readonly TFile[]): FileValidation<TFile> {
  if (files.length === 0) return { ok: false, error: { key: 'upload.noFiles' } };
  const tooLarge = files.filter((file) => file.size > MAX_FILE_BYTES);
  if (tooLarge.length > 0)
    return {
      ok: false,
      error: { key: 'upload.fileTooLarge', params: { names: tooLarge.map((file) => file.name).join(', ') } },
    };
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > MAX_TOTAL_BYTES)
    return { ok: false, error: { key: 'upload.totalTooLarge', params: { size: megabytes(total) } } };
  const unsupported = files.filter((file) => !isImage(file) && !isAcceptedFile(file));
  if (unsupported.length > 0)
    return {
      ok: false,
      error: { key: 'upload.unsupportedType', params: { names: unsupported.map((file) => file.name).join(', ') } },
    };
  return { ok: true, files: files.filter((file) => !isImage(file)), images: files.filter(isImage) };
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export type UploadReport =
  | { type: 'UPLOAD_PROGRESS'; progress: UploadProgress }
  | { type: 'UPLOAD_DONE'; result: UploadResult }
  | { type: 'UPLOAD_FAILED' };

export interface UploadRequest {
  files: FileLike[];
  /** Sent with the files (message_content / send_message) when the user typed one. */
  message: string | null;
}

export interface UploadContext {
  balance: number | null;
  files: FileLike[];
  message: string | null;
  progress: UploadProgress | null;
  error: UploadError | { key: 'upload.failed' } | null;
  result: UploadResult | null;
}

export type UploadEvent =
  | { type: 'SELECT_FILES'; files: FileLike[]; message?: string | null }
  | { type: 'DROP_FILES'; files: FileLike[] }
  | { type: 'CANCEL' }
  | { type: 'DISMISS' }
  | { type: 'CREDITS_CHANGED'; balance: number | null }
  | UploadReport;

const insufficientCredits = (balance: number | null) => balance !== null && balance < CRITICAL_BALANCE;

const filesOf = (event: UploadEvent): FileLike[] =>
  event.type === 'SELECT_FILES' || event.type === 'DROP_FILES' ? event.files : [];
const messageOf = (event: UploadEvent): string | null =>
  event.type === 'SELECT_FILES' ? (event.message ?? null) : null;

/**
 * A picked or dropped set: invalid → the error; only images → they go to the message; otherwise
 * the images go to the message and the other files are uploaded.
 */
const takeFiles = [
  { guard: and(['mayTake', 'isInvalid']), target: 'invalid', actions: 'reject' },
  {
    guard: and(['mayTake', 'onlyImages']),
    target: 'idle',
    actions: ['forget', { type: 'attachImages', params: ({ event }: { event: UploadEvent }) => filesOf(event) }],
  },
  {
    guard: and(['mayTake', 'hasImages']),
    target: 'uploading',
    actions: [
      { type: 'attachImages', params: ({ event }: { event: UploadEvent }) => filesOf(event).filter(isImage) },
      'accept',
    ],
  },
  { guard: 'mayTake', target: 'uploading', actions: 'accept' },
] as const;

export const uploadMachine = setup({
  types: { context: {} as UploadContext, events: {} as UploadEvent },
  actors: {
    /** POST upload-files; reports UPLOAD_PROGRESS while sending, then UPLOAD_DONE or UPLOAD_FAILED; aborts when stopped. */
    uploadFiles: fromCallback<EventObject, UploadRequest, UploadReport>(() => {
      throw new Error('"uploadFiles" is a side effect: supply it with machine.provide()');
    }),
  },
  actions: {
    /** Hands the images to the message box (they go with the message, not as files). */
    attachImages: notProvidedAction<FileLike[]>('attachImages'),
    /** One toast per skipped file, with its reason. */
    announceSkipped: notProvidedAction<SkippedFile>('announceSkipped'),
    /** Sends files_uploaded over the socket. */
    announceUploaded: notProvidedAction<UploadResult>('announceUploaded'),
    /** Toast 'File upload failed. Please try again.' */
    announceFailure: notProvidedAction('announceFailure'),
    accept: assign(({ event }) => ({
      files: filesOf(event).filter((file) => !isImage(file)),
      message: messageOf(event),
      error: null,
      progress: null,
      result: null,
    })),
    reject: assign(({ event }) => {
      const checked = validateFiles(filesOf(event));
      return { error: checked.ok ? null : checked.error, files: [], result: null };
    }),
    setProgress: assign((_, progress: UploadProgress) => ({ progress })),
    keepResult: assign((_, result: UploadResult) => ({ result, files: [], message: null, progress: null })),
    failed: assign({ error: { key: 'upload.failed' as const }, files: [], message: null, progress: null }),
    forget: assign({ error: null, files: [], progress: null, message: null, result: null }),
    setBalance: assign((_, balance: number | null) => ({ balance })),
  },
  guards: {
    /** Drops are ignored while credits are insufficient; a picked file set is always checked. */
    mayTake: ({ context, event }) => event.type === 'SELECT_FILES' || !insufficientCredits(context.balance),
    isInvalid: ({ event }) => !validateFiles(filesOf(event)).ok,
    hasImages: ({ event }) => filesOf(event).some(isImage),
    onlyImages: ({ event }) => filesOf(event).every(isImage),
  },
}).createMachine({
  id: 'upload',
  context: { balance: null, files: [], message: null, progress: null, error: null, result: null },
  initial: 'idle',
  on: { CREDITS_CHANGED: { actions: { type: 'setBalance', params: ({ event }) => event.balance } } },
  states: {
    idle: {
      on: { SELECT_FILES: takeFiles, DROP_FILES: takeFiles, DISMISS: { actions: 'forget' } },
    },
    /** The error ('Error: …') shows until dismissed or another set is taken. */
    invalid: {
      on: { SELECT_FILES: takeFiles, DROP_FILES: takeFiles, DISMISS: { target: 'idle', actions: 'forget' } },
    },
    uploading: {
      invoke: {
        id: 'uploadFiles',
        src: 'uploadFiles',
        input: ({ context }): UploadRequest => ({ files: context.files, message: context.message }),
      },
      on: {
        UPLOAD_PROGRESS: { actions: { type: 'setProgress', params: ({ event }) => event.progress } },
        UPLOAD_DONE: {
          target: 'idle',
          actions: [
            { type: 'keepResult', params: ({ event }) => event.result },
            enqueueActions(({ event, enqueue }) => {
              for (const skipped of event.result.skipped_files) enqueue({ type: 'announceSkipped', params: skipped });
            }),
            { type: 'announceUploaded', params: ({ event }) => event.result },
          ],
        },
        UPLOAD_FAILED: { target: 'idle', actions: ['failed', 'announceFailure'] },
        CANCEL: { target: 'idle', actions: 'forget' },
      },
    },
  },
});

type UploadSnapshot = SnapshotFrom<typeof uploadMachine>;

export const selectIsUploading = (snapshot: UploadSnapshot) => snapshot.matches('uploading');
/** Progress as a fraction 0–1, null before the first report. */
export const selectProgress = (snapshot: UploadSnapshot) => {
  const progress = snapshot.context.progress;
  return progress === null || progress.total <= 0 ? null : Math.min(1, progress.loaded / progress.total);
};
export const selectUploadError = (snapshot: UploadSnapshot) => snapshot.context.error;
export const selectSkippedFiles = (snapshot: UploadSnapshot) => snapshot.context.result?.skipped_files ?? [];
