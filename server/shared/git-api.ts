// Where each git host's REST API answers, for a token saved with `host` (none: the cloud host).
// The git module calls it; the agent is told it to open pull requests; clones use the origin.

import type { GitProvider } from '../../openapi/types.ts';

/** Thrown for a host that is more than a host name, an optional port and an optional scheme. */
export class InvalidGitHost extends Error {
  constructor(host: string) {
    super(
      `${host} is not a git host: give a host name with an optional port, such as gitlab.example.com or https://gitlab.example.com:8443.`,
    );
  }
}

/**
 * A saved host as an origin (`https://` unless it names `http://`), parsed, never spliced: a
 * path, query, fragment or user name in it would make every API call go elsewhere.
 */
export function hostOrigin(host: string): string {
  const text = host.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    throw new InvalidGitHost(host);
  }
  const plain = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  if (!['https:', 'http:'].includes(url.protocol) || !plain || text.includes('#') || text.includes('?'))
    throw new InvalidGitHost(host);
  return url.origin;
}

export function gitApiUrl(provider: GitProvider, host: string | null): string {
  switch (provider) {
    // GitHub Enterprise Server answers at <host>/api/v3.
    case 'github':
      return host ? `${hostOrigin(host)}/api/v3` : 'https://api.github.com';
    case 'gitlab':
      return `${host ? hostOrigin(host) : 'https://gitlab.com'}/api/v4`;
    case 'bitbucket':
      return `${host ? hostOrigin(host) : 'https://api.bitbucket.org'}/2.0`;
  }
}
