// Where each git host's REST API answers, for a token saved with `host` (none: the cloud host).
// The git module calls it; the agent is told it to open pull requests; clones use the origin.

import type { GitProvider } from '../../openapi/types.ts';

/** A saved host as an origin: https:// unless it names its scheme, no trailing slash. */
export const hostOrigin = (host: string) => (host.includes('://') ? host : `https://${host}`).replace(/\/+$/, '');

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
