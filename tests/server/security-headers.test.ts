import { describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';

// Every answer carries the security headers: API answers, errors and unknown paths alike.
const t = withTestApp({ PUBLIC_URL: 'https://atelier.example' });

describe('security headers on every answer', () => {
  it('are on an API answer, a refusal and an unknown path, with HSTS behind https', async () => {
    for (const [url, status] of [
      ['/api/options/config', 200],
      ['/api/conversations/0123456789abcdef0123456789abcdef', 401],
      ['/nothing-here/at-all.txt', 404],
    ] as const) {
      const answer = await call(t.app, 'GET', url, { headers: { host: 'atelier.example' } });
      expect(answer.status).toBe(status);
      expect(answer.headers['content-security-policy']).toMatch(/^default-src 'self'; /);
      expect(answer.headers['content-security-policy']).toContain("frame-src 'self' http://atelier.example:*");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(answer.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
  });
});

describe('reports of what the policy blocked', () => {
  const report = (body: string, type = 'application/csp-report') =>
    t.app.http.inject({ method: 'POST', url: '/api/csp-report', headers: { 'content-type': type }, payload: body });
  const counted = async (directive: string) => {
    const text = (await t.app.http.inject({ method: 'GET', url: '/metrics' })).body;
    return Number(
      new RegExp(`^atelier_csp_violations_total\\{directive="${directive}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0,
    );
  };

  it('are taken as browsers send them and counted by directive, an unknown one as other', async () => {
    const before = {
      img: await counted('img-src'),
      script: await counted('script-src'),
      other: await counted('other'),
    };
    const sent = [
      {
        'document-uri': 'https://atelier.example/dashboard',
        'blocked-uri': 'http://tracker.example/p.gif',
        'effective-directive': 'img-src',
        'line-number': 3,
      },
      // An older engine's: the violated directive with its sources, no effective one.
      {
        'document-uri': 'https://atelier.example/',
        'blocked-uri': 'inline',
        'violated-directive': "script-src 'self'",
      },
      { 'document-uri': 'https://atelier.example/', 'effective-directive': 'made-up-src', disposition: 'report' },
    ];
    for (const body of sent) {
      const answer = await report(JSON.stringify({ 'csp-report': body }));
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ success: true });
    }
    expect(await counted('img-src')).toBe(before.img + 1);
    expect(await counted('script-src')).toBe(before.script + 1);
    expect(await counted('other')).toBe(before.other + 1);
  });

  it('refuses what is no report, not JSON or too large, and counts nothing', async () => {
    const before = await counted('img-src');
    const missing = await report(JSON.stringify({ 'document-uri': 'https://atelier.example/' }));
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail).toBeTruthy();
    const unknownField = { 'document-uri': 'https://atelier.example/', 'effective-directive': 'img-src', extra: 1 };
    expect((await report(JSON.stringify({ 'csp-report': unknownField }))).statusCode).toBe(422);
    const broken = await report('{"csp-report": ');
    expect(broken.statusCode).toBe(422);
    expect(broken.json().detail[0].msg).toMatch(/^The body is not valid JSON: /);
    const large = {
      'document-uri': 'https://atelier.example/',
      'effective-directive': 'img-src',
      'original-policy': 'x'.repeat(20_000),
    };
    expect((await report(JSON.stringify({ 'csp-report': large }))).statusCode).toBe(413);
    expect(await counted('img-src')).toBe(before);
  });
});
