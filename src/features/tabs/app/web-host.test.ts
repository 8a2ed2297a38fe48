import { describe, expect, it } from 'vitest';
import { createProbe, firstAnsweringHost } from './web-host.ts';

const page = { hostname: 'atelier.example', protocol: 'https:' };

describe('web app host', () => {
  it('is the first host that answers, rewritten to the page host', async () => {
    const answering = new Set(['http://atelier.example:5001/']);
    const tried: string[] = [];
    const probe = async (url: string) => {
      tried.push(url);
      return answering.has(url);
    };
    expect(await firstAnsweringHost(['http://localhost:5000', 'http://localhost:5001', 'http://localhost:5002'], page, probe)).toBe('http://atelier.example:5001/');
    expect(tried).toEqual(['http://atelier.example:5000/', 'http://atelier.example:5001/']);
    expect(await firstAnsweringHost([], page, probe)).toBeNull();
  });

  it('falls back to no-cors after a network error', async () => {
    const modes: (string | undefined)[] = [];
    const probe = createProbe(async (_url, init) => {
      modes.push(init?.mode);
      if (init?.mode !== 'no-cors') throw new TypeError('Failed to fetch');
      return new Response(null);
    });
    expect(await probe('http://a.test')).toBe(true);
    expect(modes).toEqual([undefined, 'no-cors']);
    expect(await createProbe(async () => Promise.reject(new TypeError('down')))('http://b.test')).toBe(false);
  });
});
