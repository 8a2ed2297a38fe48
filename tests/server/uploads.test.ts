import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, listen, signUp, waitFor } from '../support/conversations.ts';
import type { Event } from '../../openapi/types.ts';

const t = withTestApp();
const MB = 1024 * 1024;
let user: { token: string; id: string };
let baseUrl: string;
let conversationId: string;

beforeAll(async () => {
  user = await signUp(t.app, t.db, 'uploads@acme.example');
  baseUrl = await listen(t.app);
  conversationId = (await createRunning(t.app, user.token)).conversation_id;
});

type Part = { field: string; value: string } | { file: string; bytes: number | Buffer };

/**
 * Streams a multipart body over real HTTP, generating big files chunk by chunk so the test
 * never holds them in memory. The server may answer before the body is sent: that answer counts.
 */
function upload(parts: Part[]): Promise<{ status: number; body: Record<string, unknown> }> {
  const boundary = 'atelier-test-boundary';
  async function* body() {
    for (const part of parts) {
      if ('field' in part) {
        yield Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`,
        );
        continue;
      }
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${part.file}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      if (Buffer.isBuffer(part.bytes)) yield part.bytes;
      else {
        const chunk = Buffer.alloc(MB, 97);
        for (let sent = 0; sent < part.bytes; sent += MB)
          yield sent + MB <= part.bytes ? chunk : chunk.subarray(0, part.bytes - sent);
      }
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}/api/conversations/${conversationId}/upload-files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (d: Buffer) => (text += d.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }),
      );
    });
    // Writing fails once the server has answered early and closed: the answer is what matters.
    request.on('error', (error) => setTimeout(() => reject(error), 2000));
    Readable.from(body()).pipe(request);
  });
}

const workspace = () => path.join(t.database.dataDir, 'workspaces', conversationId);
const spoolIsEmpty = () =>
  !fs.existsSync(path.join(t.database.dataDir, 'uploads')) ||
  fs.readdirSync(path.join(t.database.dataDir, 'uploads')).length === 0;

describe('uploading files into the workspace', () => {
  it('stores accepted files, skips others with a reason and refuses names that leave the workspace', async () => {
    const result = await upload([
      { file: 'app.ts', bytes: Buffer.from('export const x = 1;\n') },
      { file: 'src/nested/tool.py', bytes: Buffer.from('print(1)\n') },
      { file: 'logo.png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
      { file: 'setup.exe', bytes: Buffer.from('MZ') },
      { file: '../evil.txt', bytes: Buffer.from('escaped') },
      { file: 'project.tar.gz', bytes: Buffer.from([0x1f, 0x8b]) },
    ]);
    expect(result.status).toBe(200);
    expect(result.body.uploaded_files).toEqual(['app.ts', 'src/nested/tool.py', 'logo.png', 'project.tar.gz']);
    expect(result.body.skipped_files).toEqual([
      { name: 'setup.exe', reason: expect.stringContaining('.exe are not accepted') },
      { name: '../evil.txt', reason: 'The file name must be a plain name inside the workspace' },
    ]);
    expect(fs.readFileSync(path.join(workspace(), 'src/nested/tool.py'), 'utf8')).toBe('print(1)\n');
    expect(fs.existsSync(path.join(workspace(), 'setup.exe'))).toBe(false);
    expect(fs.existsSync(path.join(workspace(), '..', 'evil.txt'))).toBe(false);
    expect(spoolIsEmpty()).toBe(true);
  });

  it('sends a message naming the files when asked', async () => {
    const result = await upload([
      { field: 'message_content', value: 'Please review this' },
      { field: 'send_message', value: 'true' },
      { file: 'review.md', bytes: Buffer.from('# Review\n') },
    ]);
    expect(result.body.uploaded_files).toEqual(['review.md']);
    const events = await waitFor(
      async () =>
        ((await call(t.app, 'GET', `/api/conversations/${conversationId}/events`, { token: user.token })).body
          ?.events ?? []) as Event[],
      (list) => list.some((e) => e.action === 'message'),
    );
    expect(events.find((e) => e.action === 'message')).toMatchObject({
      source: 'user',
      args: { content: 'Please review this\n\nUploaded files: review.md', file_urls: ['review.md'] },
    });
  });

  it('refuses a file over 200 MB without storing it', { timeout: 60_000 }, async () => {
    const result = await upload([{ file: 'big.zip', bytes: 201 * MB }]);
    expect(result).toEqual({ status: 413, body: { detail: 'Files exceeding 200MB are not allowed: big.zip' } });
    expect(fs.existsSync(path.join(workspace(), 'big.zip'))).toBe(false);
    await waitFor(spoolIsEmpty, Boolean, 5000, 'the spool to be cleared');
  });

  it('refuses files over 200 MB in total without storing any of them', { timeout: 60_000 }, async () => {
    const result = await upload([
      { file: 'first.zip', bytes: 150 * MB },
      { file: 'second.zip', bytes: 60 * MB },
    ]);
    expect(result.status).toBe(413);
    expect(result.body.detail).toMatch(/^Total file size would be over \d+ MB, exceeding the 200MB limit/);
    expect(fs.existsSync(path.join(workspace(), 'first.zip'))).toBe(false);
    await waitFor(spoolIsEmpty, Boolean, 5000, 'the spool to be cleared');
  });

  it('answers 400 to a request without files', async () => {
    expect((await upload([{ field: 'message_content', value: 'nothing' }])).status).toBe(400);
    const json = await call(t.app, 'POST', `/api/conversations/${conversationId}/upload-files`, {
      token: user.token,
      body: { files: [] },
    });
    expect(json.status).toBe(400);
  });
});
