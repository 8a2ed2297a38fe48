import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';

// A built web app of its own: a page, a script worth compressing, one too small to gain, a font and a source map.
const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'built-assets-'));
fs.mkdirSync(path.join(webRoot, 'assets'));
const script = `export const rows = [${Array.from({ length: 500 }, (_, i) => `"row ${i}"`).join(', ')}];\n`;
const files: Record<string, string | Buffer> = {
  // A page worth compressing, as the built one is (its preloads and inline styles).
  'index.html': `<!doctype html><title>Atelier</title>${'<link rel="modulepreload" href="/assets/a.js">'.repeat(40)}<div id="root"></div>`,
  'assets/workspace-a1b2c3.js': script,
  'assets/tiny-d4e5f6.js': 'x',
  'assets/font-0a0b0c.woff2': Buffer.from([0x77, 0x4f, 0x46, 0x32, 1, 2, 3]),
  'assets/workspace-a1b2c3.js.map': '{"version":3}',
  'robots.txt': 'User-agent: *',
};
for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(webRoot, name), body);
afterAll(() => fs.rmSync(webRoot, { recursive: true, force: true }));

const t = withTestApp({}, { webRoot });
const hosted = withTestApp({ APP_MODE: 'saas' });
const get = (url: string, headers: Record<string, string> = {}) => t.app.http.inject({ method: 'GET', url, headers });

describe('the built scripts and stylesheets', () => {
  it('go out gzipped to a browser that takes gzip, with their type and for a year', async () => {
    const answer = await get('/assets/workspace-a1b2c3.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.rawPayload.length).toBeLessThan(script.length / 3);
    expect(gunzipSync(answer.rawPayload).toString()).toBe(script);
  });

  it('go out as built to a client that does not take gzip, or refuses it', async () => {
    const refusals: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br, gzip;q=0' },
    ];
    for (const headers of refusals) {
      const answer = await get('/assets/workspace-a1b2c3.js', headers);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.body).toBe(script);
    }
    const tiny = await get('/assets/tiny-d4e5f6.js', { 'accept-encoding': 'gzip' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('x');
  });

  it('answer 304 to a browser that holds the same version', async () => {
    const first = await get('/assets/workspace-a1b2c3.js');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get('/assets/workspace-a1b2c3.js', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await get('/assets/workspace-a1b2c3.js', { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('leave other built files to the file server, cached for a year as well; unhashed files are checked each time', async () => {
    const font = await get('/assets/font-0a0b0c.woff2', { 'accept-encoding': 'gzip' });
    expect(font.statusCode).toBe(200);
    expect(font.rawPayload).toEqual(files['assets/font-0a0b0c.woff2']);
    expect(font.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/assets/workspace-a1b2c3.js.map')).body).toBe('{"version":3}');
    const robots = await get('/robots.txt');
    expect(robots.body).toBe('User-agent: *');
    expect(robots.headers['cache-control']).toBe('no-cache');
  });

  it('answer 404 for a file that is not built, not the application page, and serve it once it is', async () => {
    for (const url of ['/assets/later-9f9f9f.js', '/assets/..%2Findex.html', '/assets/.hidden.js']) {
      const missing = await get(url);
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json()).toEqual({ detail: 'Not found' });
    }
    expect((await get('/conversations/x')).headers['content-type']).toBe('text/html; charset=utf-8');
    fs.writeFileSync(path.join(webRoot, 'assets', 'later-9f9f9f.js'), 'export {};');
    const built = await get('/assets/later-9f9f9f.js');
    expect(built.statusCode).toBe(200);
    expect(built.body).toBe('export {};');
  });
});

describe('pages and JSON answers', () => {
  it('go out gzipped to a browser that takes gzip, and as they are to one that does not', async () => {
    for (const url of ['/conversations/x', '/api/openapi.yaml', '/api/docs']) {
      const zipped = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(zipped.statusCode, url).toBe(200);
      expect(zipped.headers['content-encoding'], url).toBe('gzip');
      const plain = await get(url);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(gunzipSync(zipped.rawPayload).toString(), url).toBe(plain.body);
      expect(zipped.rawPayload.length, url).toBeLessThan(plain.rawPayload.length / 2);
    }
    // An API answer: the countries of onboarding, about 10 kB of JSON.
    const ada = await signUp(hosted.app, hosted.db, 'ada-gzip@acme.example');
    const countries = (headers: Record<string, string>) =>
      hosted.app.http.inject({
        method: 'GET',
        url: '/api/atelier/onboarding/countries',
        headers: { authorization: `Bearer ${ada.token}`, ...headers },
      });
    const [zipped, plain] = [await countries({ 'accept-encoding': 'gzip' }), await countries({})];
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(plain.json());
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    // A built script is gzipped once, not twice.
    const script = await get('/assets/workspace-a1b2c3.js', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(script.rawPayload).toString()).toMatch(/^export const rows/);
  });
});
