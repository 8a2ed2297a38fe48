import { webAppUrl } from '../../../rules/event-display.ts';

/**
 * The web app tab's active host: the first served host, at the address the browser can reach
 * (a local address is rewritten to the page's host when the page is not on localhost); null
 * while nothing is served.
 */
export function activeHost(hosts: readonly string[], page: { hostname: string; protocol: string }): string | null {
  const [first] = hosts;
  return first === undefined ? null : webAppUrl(first, page);
}

/** The app proxy's one-time sign-in token (server/modules/conversations/app-proxy.ts): in the frame's address, not in the address bar. */
const TOKEN_PARAMETER = 'atelier_app_token';

/** The address as the bar shows it: the app's own, without the proxy's token. */
export function shownAddress(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return address;
  }
  if (!url.searchParams.has(TOKEN_PARAMETER)) return address;
  url.searchParams.delete(TOKEN_PARAMETER);
  return url.toString();
}
