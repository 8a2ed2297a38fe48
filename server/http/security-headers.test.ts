import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes, securityHeaders } from './security-headers.ts';

const directives = (policy: string) =>
  new Map(policy.split('; ').map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]));

describe('the security headers', () => {
  it('allow the application, the apps it serves on its own host name and the VS Code server, and nothing else', () => {
    const headers = securityHeaders({
      publicUrl: 'http://localhost:3000',
      vscodeUrl: 'https://code.example:8443/?folder=/w',
      inlineScripts: ["'sha256-abc='"],
    })('atelier.example');
    const policy = directives(headers['content-security-policy']!);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'", "'sha256-abc='"]);
    expect(policy.get('frame-src')).toEqual([
      "'self'",
      'http://atelier.example:*',
      'https://atelier.example:*',
      'https://code.example:8443',
    ]);
    expect(policy.get('connect-src')).toEqual(["'self'", 'ws://atelier.example:*', 'wss://atelier.example:*']);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('report-uri')).toEqual(['/api/csp-report']);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['strict-transport-security']).toBeUndefined();
  });

  it('add HSTS behind https, and never put a strange host name into the policy', () => {
    const headersFor = securityHeaders({ publicUrl: 'https://atelier.example', vscodeUrl: null, inlineScripts: [] });
    expect(headersFor('atelier.example')['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const policy = directives(headersFor("evil; script-src 'unsafe-inline'")['content-security-policy']!);
    expect(policy.get('frame-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(directives(headersFor('[::1]')['content-security-policy']!).get('frame-src')).toContain('http://[::1]:*');
  });

  it('answer each host with its own policy, however many hosts ask', () => {
    const headersFor = securityHeaders({ publicUrl: 'http://localhost', vscodeUrl: null, inlineScripts: [] });
    const connect = (host: string) => directives(headersFor(host)['content-security-policy']!).get('connect-src');
    for (let i = 0; i < 100; i++) expect(connect(`host-${i}.example`)).toContain(`ws://host-${i}.example:*`);
    expect(connect('host-3.example')).toContain('ws://host-3.example:*');
    expect(connect('host-3.example')).not.toContain('ws://host-99.example:*');
  });

  it('hash the built pages’ inline scripts, not those with a src', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'csp-'));
    fs.mkdirSync(path.join(root, 'landing'));
    const inline = "document.documentElement.className='dark'";
    fs.writeFileSync(path.join(root, 'index.html'), '<script type="module" src="/assets/a.js"></script>');
    fs.writeFileSync(path.join(root, 'landing', 'en.html'), `<script>${inline}</script><script src="/b.js"></script>`);
    expect(inlineScriptHashes(root)).toEqual([`'sha256-${createHash('sha256').update(inline).digest('base64')}'`]);
    expect(inlineScriptHashes(null)).toEqual([]);
    fs.rmSync(root, { recursive: true });
  });
});
