import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The built pages' inline scripts (the landing page's colour scheme), allowed by their hashes. */
export function inlineScriptHashes(webRoot: string | null): string[] {
  if (!webRoot) return [];
  const pages = ['index.html', 'popout.html', ...listHtml(path.join(webRoot, 'landing')).map((f) => `landing/${f}`)];
  const hashes = new Set<string>();
  for (const page of pages) {
    const file = path.join(webRoot, page);
    if (!fs.existsSync(file)) continue;
    for (const match of fs.readFileSync(file, 'utf8').matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g))
      hashes.add(`'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`);
  }
  return [...hashes].sort();
}

function listHtml(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((file) => file.endsWith('.html')) : [];
}

export interface SecurityHeaderOptions {
  /** Where users reach the server: HSTS only when it is https. */
  publicUrl: string;
  /** The external VS Code server the VS Code tab frames, if any. */
  vscodeUrl: string | null;
  inlineScripts: readonly string[];
}

/** The policy's directives, in the order it gives them; a violation report names one of them. */
export const POLICY_DIRECTIVES = [
  'default-src',
  'script-src',
  'style-src',
  'img-src',
  'font-src',
  'connect-src',
  'frame-src',
  'worker-src',
  'object-src',
  'base-uri',
  'form-action',
  'frame-ancestors',
] as const;

/** Host names whose headers are kept. */
const HOSTS_KEPT = 32;

/**
 * The headers of every page and API answer. The policy allows the application itself and what
 * its tabs frame: the apps the workspace serves (any port of the page's own host name) and the
 * VS Code server. Images may also come over https (the git hosts' avatars); nothing else loads.
 * Style attributes stay allowed ('unsafe-inline' for styles): React and the tiling set sizes inline.
 */
export function securityHeaders(options: SecurityHeaderOptions) {
  const hsts = options.publicUrl.startsWith('https:') ? 'max-age=31536000; includeSubDomains' : null;
  const vscode = options.vscodeUrl ? new URL(options.vscodeUrl).origin : null;
  // The headers differ only by host, and a server is reached by a few: each set is built once.
  // The Host header is the client's to choose, so the cache is bounded.
  const byHost = new Map<string, Record<string, string>>();
  return (hostname: string): Record<string, string> => {
    let headers = byHost.get(hostname);
    if (!headers) {
      if (byHost.size >= HOSTS_KEPT) byHost.clear();
      headers = build(hostname);
      byHost.set(hostname, headers);
    }
    return headers;
  };

  function build(hostname: string): Record<string, string> {
    // A host name, never a header's stray text (the policy must stay one well-formed value).
    const host = /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/i.test(hostname) ? hostname : null;
    const served = host ? [`http://${host}:*`, `https://${host}:*`] : [];
    const sources: Record<(typeof POLICY_DIRECTIVES)[number], string> = {
      'default-src': "'self'",
      'script-src': ["'self'", ...options.inlineScripts].join(' '),
      'style-src': "'self' 'unsafe-inline'",
      // https: for the images a message links to, each loaded only when its reader clicks for it
      // (src/ui/markdown.ts); everything else the app shows is its own or a data URL.
      'img-src': "'self' data: blob: https:",
      'font-src': "'self' data:",
      'connect-src': ["'self'", ...(host ? [`ws://${host}:*`, `wss://${host}:*`] : [])].join(' '),
      'frame-src': ["'self'", ...served, ...(vscode ? [vscode] : [])].join(' '),
      'worker-src': "'self' blob:",
      'object-src': "'none'",
      'base-uri': "'self'",
      'form-action': "'self'",
      'frame-ancestors': "'self'",
    };
    const policy = [
      ...POLICY_DIRECTIVES.map((directive) => `${directive} ${sources[directive]}`),
      // report-uri, not report-to: browsers send these reports at once and from any origin, where
      // the Reporting API batches them for up to a minute and only from secure origins.
      'report-uri /api/csp-report',
    ].join('; ');
    return {
      'content-security-policy': policy,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      ...(hsts && { 'strict-transport-security': hsts }),
    };
  }
}
