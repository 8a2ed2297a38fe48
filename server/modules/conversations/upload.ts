import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import type { RuntimeSession } from '../../runtime/types.ts';
import { contractValidator } from '../../shared/contract-schemas.ts';
import { DomainError, InvalidInput, UploadTooLarge, ValidationFailure } from '../../shared/domain-errors.ts';
import { viaRuntime } from './runtime-errors.ts';
import { ARCHIVE_EXTENSIONS, IMAGE_EXTENSIONS, TEXT_EXTENSIONS, UPLOAD_LIMIT_BYTES } from '../../../openapi/uploads.ts';

/** The spec's limits (§9): 200 MB per file and 200 MB in total. */
export { UPLOAD_LIMIT_BYTES };

// Images go with messages (the model looks at them); uploaded, they are stored like the rest. '.tgz' is '.tar.gz' too.
const ACCEPTED: readonly string[] = [...ARCHIVE_EXTENSIONS, 'tgz', ...TEXT_EXTENSIONS, ...IMAGE_EXTENSIONS];

export interface UploadForm {
  files: { name: string; spooled: string }[];
  skipped: { name: string; reason: string }[];
  messageContent: string;
  sendMessage: boolean;
  imageUrls: string[];
}

/**
 * Why a file name cannot be stored, or null. Names may carry folders (`src/app.ts`, from a
 * folder upload) but every part must be a plain name: nothing absolute, no `..`, no `\`.
 */
function refusal(name: string): string | null {
  const parts = name.split('/');
  if (!name || name.includes('\\') || name.includes('\0') || parts.some((p) => p === '' || p === '.' || p === '..'))
    return 'The file name must be a plain name inside the workspace';
  // What the file system takes.
  if (parts.some((part) => Buffer.byteLength(part) > 255) || Buffer.byteLength(name) > 4096)
    return 'The file name is too long: at most 255 bytes a name and 4,096 bytes with its folders';
  const lower = name.toLowerCase();
  const kind = ACCEPTED.find((ext) => lower.endsWith(`.${ext}`));
  if (!kind)
    return `Files of type ${path.extname(lower) || '(none)'} are not accepted: upload archives, source or text files, or images`;
  return null;
}

/** Counts bytes through a stream and fails as soon as the request's total passes the limit. */
function counter(state: { total: number }) {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      state.total += chunk.length;
      if (state.total > UPLOAD_LIMIT_BYTES) return done(tooLargeInTotal(state.total));
      done(null, chunk);
    },
  });
}

const tooLargeInTotal = (total: number) =>
  new UploadTooLarge(
    `Total file size would be over ${Math.floor(total / 1024 / 1024)} MB, exceeding the 200MB limit. Please select fewer or smaller files.`,
  );

/**
 * Reads the multipart form, spooling accepted files to `spoolDir` so nothing reaches the
 * workspace until the whole request is known to be within the limits (413 otherwise).
 */
export async function receiveForm(parts: AsyncIterableIterator<Multipart>, spoolDir: string): Promise<UploadForm> {
  const form: UploadForm = { files: [], skipped: [], messageContent: '', sendMessage: false, imageUrls: [] };
  const state = { total: 0 };
  await mkdir(spoolDir, { recursive: true });
  for await (const part of parts) {
    if (part.type === 'field') {
      const value = String(part.value);
      if (part.fieldname === 'message_content') form.messageContent = value;
      else if (part.fieldname === 'send_message') form.sendMessage = value === 'true';
      else if (part.fieldname === 'image_urls' || part.fieldname === 'image_urls[]') addImage(form, value);
      continue;
    }
    const name = part.filename;
    const reason = refusal(name);
    const spooled = path.join(spoolDir, String(form.files.length + form.skipped.length));
    // A refused file is still read (and counted): the request's size is what the limit is about.
    await pipeline(part.file, counter(state), reason ? discard() : createWriteStream(spooled));
    if (part.file.truncated) throw new UploadTooLarge(`Files exceeding 200MB are not allowed: ${name}`);
    if (reason) form.skipped.push({ name, reason });
    else form.files.push({ name, spooled });
  }
  if (form.files.length + form.skipped.length === 0)
    throw new InvalidInput('Please select at least one file to upload');
  return form;
}

const isImageDataUrl = contractValidator<string>('ImageDataUrl');
const MAX_IMAGES = 20; // as the contract's image_urls elsewhere

/** Multipart fields are not validated by the contract on arrival: the JSON bodies' rule for images, here. */
function addImage(form: UploadForm, value: string): void {
  const refuse = (msg: string, type: string) =>
    new ValidationFailure([{ loc: ['body', 'image_urls', form.imageUrls.length], msg, type }]);
  if (form.imageUrls.length >= MAX_IMAGES)
    throw refuse(`image_urls must NOT have more than ${MAX_IMAGES} items`, 'maxItems');
  if (!isImageDataUrl.is(value)) throw refuse(`image_urls: an image is sent as a data:image/… URL`, 'pattern');
  form.imageUrls.push(value);
}

function discard() {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

/** Moves the spooled files into the workspace (one in memory at a time); answers their workspace paths. */
export async function storeFiles(session: RuntimeSession, form: UploadForm): Promise<string[]> {
  const stored: string[] = [];
  for (const file of form.files) {
    await viaRuntime(async () => session.putFile(file.name, await readFile(file.spooled)), file.name);
    stored.push(file.name);
  }
  return stored;
}

/** A private spool directory under the data directory, removed by `done`. */
export function spoolDirectory(dataDir: string) {
  const dir = path.join(dataDir, 'uploads', randomBytes(8).toString('hex'));
  return { dir, done: () => rm(dir, { recursive: true, force: true }) };
}

export type MultipartParts = (options?: { preservePath: boolean }) => AsyncIterableIterator<Multipart>;

/** Receives a multipart upload into a private spool, hands the form to `store`, and removes the spool. */
export async function receiveUpload<T>(
  parts: MultipartParts | null,
  dataDir: string,
  store: (form: UploadForm) => Promise<T>,
): Promise<T> {
  if (!parts) throw new InvalidInput('Send the files as multipart/form-data');
  const spool = spoolDirectory(dataDir);
  try {
    // Names as sent (folder uploads carry paths): refusal() decides, instead of busboy silently cutting them.
    return await store(await receiveForm(parts({ preservePath: true }), spool.dir).catch(notMultipart));
  } finally {
    await spool.done();
  }
}

/**
 * A body that is not multipart, or is broken (no boundary, cut short, garbage), is the caller's
 * mistake: 400 (not the plugin's 406, nor a 500). A file system error stays the server's.
 */
function notMultipart(error: unknown): never {
  if (error instanceof DomainError || error instanceof ValidationFailure) throw error;
  const { code, statusCode, message } = error as { code?: string; statusCode?: number; message?: string };
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new InvalidInput('Send the files as multipart/form-data');
  // The plugin's own refusals (its limits) carry their status and text, which the edge answers with.
  if ((statusCode !== undefined && statusCode < 500) || (code !== undefined && /^E[A-Z]+$/.test(code))) throw error;
  throw new InvalidInput(`The upload is not a valid multipart/form-data body: ${message ?? 'unreadable'}`);
}
