import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelFetch } from './http-fetch.ts';

let base = '';
const received: { method: string; body: string; auth: string | undefined; length?: string }[] = [];
const server = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    received.push({
      method: request.method ?? '',
      body,
      auth: request.headers.authorization,
      length: request.headers['content-length'],
    });
    if (request.url === '/missing')
      return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no"}');
    response.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'r1' });
    response.write('data: one\n\n');
    // The rest comes later, or never for /hang.
    if (request.url !== '/hang') setTimeout(() => response.end('data: two\n\n'), 20);
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('modelFetch', () => {
  it('sends the method, headers and body, and streams the answer with its status and headers', async () => {
    const response = await modelFetch(`${base}/chat`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"a":"1 — ü 😀"}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('r1');
    expect(await response.text()).toBe('data: one\n\ndata: two\n\n');
    // Counted in bytes, not characters.
    expect(received.at(-1)).toEqual({ method: 'POST', body: '{"a":"1 — ü 😀"}', auth: 'Bearer k', length: '21' });
  });

  it('answers errors as responses, like fetch', async () => {
    const response = await modelFetch(`${base}/missing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'no' });
  });

  it('stops reading when aborted in the middle of the answer', async () => {
    const controller = new AbortController();
    const response = await modelFetch(`${base}/hang`, { method: 'POST', body: '{}', signal: controller.signal });
    const reader = response.body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe('data: one\n\n');
    controller.abort();
    await expect(reader?.read()).rejects.toThrow();
  });

  it('refuses what it does not implement rather than sending something else', async () => {
    await expect(modelFetch(`${base}/chat`, { method: 'POST', body: new Uint8Array([1]) })).rejects.toThrow(
      /string bodies/,
    );
    await expect(modelFetch('ftp://example.com/x')).rejects.toThrow(/Unsupported protocol/);
  });
});
