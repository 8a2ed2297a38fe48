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
