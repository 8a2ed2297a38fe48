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
