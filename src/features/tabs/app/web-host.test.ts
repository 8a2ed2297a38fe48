import { describe, expect, it } from 'vitest';
import { activeHost, shownAddress } from './web-host.ts';

describe('web app host', () => {
  it('is the first served host, rewritten to the page host when the page is not local', () => {
    const hosts = ['http://127.0.0.1:5001', 'http://[::1]:5002'];
    expect(activeHost(hosts, { hostname: 'atelier.example', protocol: 'https:' })).toBe('http://atelier.example:5001/');
    expect(activeHost(hosts, { hostname: 'localhost', protocol: 'http:' })).toBe('http://127.0.0.1:5001');
    expect(activeHost(hosts.slice(1), { hostname: 'atelier.example', protocol: 'https:' })).toBe(
      'http://atelier.example:5002/',
    );
    expect(activeHost([], { hostname: 'localhost', protocol: 'http:' })).toBeNull();
  });

  it('is shown without the app proxy’s token, everything else kept', () => {
    expect(shownAddress('http://localhost:20001/?atelier_app_token=abc.def')).toBe('http://localhost:20001/');
    expect(shownAddress('http://localhost:20001/app?x=1&atelier_app_token=abc')).toBe('http://localhost:20001/app?x=1');
    expect(shownAddress('http://127.0.0.1:5001')).toBe('http://127.0.0.1:5001');
    expect(shownAddress('not a url')).toBe('not a url');
  });
});
