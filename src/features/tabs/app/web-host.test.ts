import { describe, expect, it } from 'vitest';
import { activeHost } from './web-host.ts';

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
});
