import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { uploadMachine } from '../../../machines/upload.ts';
import { uploadFilesActor, uploadFormData } from './upload-request.ts';

/** An XMLHttpRequest stand-in the test drives: progress, then the answer. */
class FakeRequest extends EventTarget {
  static last: FakeRequest;
  readonly upload = new EventTarget();
  readonly headers: Record<string, string> = {};
  status = 0;
  response: unknown = null;
  readyState = 1;
  responseType = '';
  sent: FormData | null = null;
  opened = '';
  aborted = false;
  constructor() {
    super();
    FakeRequest.last = this;
  }
  open(method: string, url: string) {
    this.opened = `${method} ${url}`;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
  }
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(Object.assign(new Event('progress'), { lengthComputable: true, loaded, total }));
  }
  answer(status: number, response: unknown) {
    this.status = status;
    this.response = response;
    this.readyState = 4;
    this.dispatchEvent(new Event('load'));
  }
}

const ignore = () => {};
const file = (name: string) => new File(['x'.repeat(10)], name, { type: 'text/plain' });

describe('upload request', () => {
  it('puts the files and the message into the multipart body', () => {
    const form = uploadFormData({ files: [file('a.ts'), file('b.md')], message: 'look' });
    expect(form.getAll('files')).toHaveLength(2);
    expect(form.get('message_content')).toBe('look');
    expect(form.get('send_message')).toBe('true');
    expect(uploadFormData({ files: [file('a.ts')], message: null }).has('message_content')).toBe(false);
  });

  it('reports progress to the upload machine, then the result, and tells the workspace', async () => {
    const uploaded: unknown[] = [];
    const actor = createActor(
      uploadMachine.provide({
        actors: {
          uploadFiles: uploadFilesActor({
            conversationId: 'c1',
            readToken: () => 'token',
            createRequest: () => new FakeRequest() as unknown as XMLHttpRequest,
          }),
        },
        actions: {
          attachImages: ignore,
          announceSkipped: ignore,
          announceUploaded: (_, result) => uploaded.push(result),
          announceFailure: ignore,
        },
      }),
    ).start();
    actor.send({ type: 'SELECT_FILES', files: [file('a.ts')] });
    const request = FakeRequest.last;
    expect(request.opened).toBe('POST /api/conversations/c1/upload-files');
    expect(request.headers.Authorization).toBe('Bearer token');
    request.progress(50, 200);
    expect(actor.getSnapshot().context.progress).toEqual({ loaded: 50, total: 200 });
    const result = { uploaded_files: ['a.ts'], skipped_files: [] };
    request.answer(200, result);
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(uploaded).toEqual([result]);
  });

  it('fails on an error status and aborts when cancelled', () => {
    const logic = uploadFilesActor({
      conversationId: 'c1',
      readToken: () => null,
      createRequest: () => new FakeRequest() as unknown as XMLHttpRequest,
    });
    const actor = createActor(
      uploadMachine.provide({
        actors: { uploadFiles: logic },
        actions: { attachImages: ignore, announceSkipped: ignore, announceUploaded: ignore, announceFailure: ignore },
      }),
    ).start();
    actor.send({ type: 'SELECT_FILES', files: [file('a.ts')] });
    FakeRequest.last.answer(500, { detail: 'no' });
    expect(actor.getSnapshot().context.error).toEqual({ key: 'upload.failed' });
    actor.send({ type: 'SELECT_FILES', files: [file('b.ts')] });
    const second = FakeRequest.last;
    actor.send({ type: 'CANCEL' });
    expect(second.aborted).toBe(true);
  });
});
