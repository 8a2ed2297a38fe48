export type PullRequestHost = 'github' | 'gitlab' | 'bitbucket' | 'azure-devops' | 'generic';

export interface PullRequestLink {
  url: string;
  host: PullRequestHost;
}

// Each host's path to one pull (merge) request, on its cloud address or a self-hosted one.
const HOST_PATTERNS: readonly [PullRequestHost, RegExp][] = [
  ['gitlab', /^\/[^/]+(?:\/[^/]+)+\/-\/merge_requests\/\d+(?:[/?#].*)?$/],
  ['azure-devops', /^\/(?:[^/]+\/)?[^/]+\/_git\/[^/]+\/pullrequest\/\d+(?:[/?#].*)?$/i],
  ['bitbucket', /^\/[^/]+\/[^/]+\/pull-requests\/\d+(?:[/?#].*)?$/],
  ['github', /^\/[^/]+\/[^/]+\/pull\/\d+(?:[/?#].*)?$/],
];
/** Anything else that reads like one: a pull/merge-request word, then a number. */
const GENERIC_PATH = /\/(?:pulls?|pull[-_]?requests?|merge[-_]?requests?|mr|pr)\/\d+(?:[/?#].*)?$/i;
const URL_IN_TEXT = /https?:\/\/[^\s<>"'`)\]]+/g;
// Sentence punctuation after a link is not part of it.
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;

/** The first pull-request (or merge-request) link in `text`, with the kind of host it is on. */
export function findPullRequestLink(text: string): PullRequestLink | null {
  for (const [match] of text.matchAll(URL_IN_TEXT)) {
    const url = match.replace(TRAILING_PUNCTUATION, '');
    let path: string;
    try {
      const parsed = new URL(url);
      path = parsed.pathname + parsed.search + parsed.hash;
    } catch {
      continue;
    }
    const host = HOST_PATTERNS.find(([, pattern]) => pattern.test(path))?.[0];
    if (host) return { url, host };
    if (GENERIC_PATH.test(path)) return { url, host: 'generic' };
  }
  return null;
}
