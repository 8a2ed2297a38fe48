import { webAppUrl } from '../../../rules/event-display.ts';

// The web app tab's active host: the first served host that answers, at the address the browser
// can reach (a local address is rewritten to the page's host when the page is not on localhost).

export type Probe = (url: string) => Promise<boolean>;

/** Answers when a GET gets any response; on a network error (for example CORS) it tries again in no-cors mode. */
export function createProbe(fetchUrl: (url: string, init?: RequestInit) => Promise<Response> = (url, init) => fetch(url, init)): Probe {
  return async (url) => {
    try {
      await fetchUrl(url);
      return true;
    } catch {
      try {
        await fetchUrl(url, { mode: 'no-cors' });
        return true;
      } catch {
        return false;
      }
    }
  };
}

export const reachableUrl = (host: string, page: { hostname: string; protocol: string }) => webAppUrl(host, page);

/** The first host (as a reachable url) whose probe answers, tried in order; null when none does. */
export async function firstAnsweringHost(hosts: readonly string[], page: { hostname: string; protocol: string }, probe: Probe): Promise<string | null> {
  for (const host of hosts) {
    const url = reachableUrl(host, page);
    if (await probe(url)) return url;
  }
  return null;
}
