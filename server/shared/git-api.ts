// Where each git host's REST API answers, for a token saved with `host` (none: the cloud host).
// The git module calls it; the agent is told it to open pull requests.

export type GitApiProvider = 'github' | 'gitlab' | 'bitbucket';

const origin = (host: string) => (host.includes('://') ? host : `https://${host}`).replace(/\/+$/, '');

export function gitApiUrl(provider: GitApiProvider, host: string | null): string {
  switch (provider) {
    // GitHub Enterprise Server answers at <host>/api/v3.
    case 'github':
      return host ? `${origin(host)}/api/v3` : 'https://api.github.com';
    case 'gitlab':
      return `${host ? origin(host) : 'https://gitlab.com'}/api/v4`;
    case 'bitbucket':
      return `${host ? origin(host) : 'https://api.bitbucket.org'}/2.0`;
  }
}
