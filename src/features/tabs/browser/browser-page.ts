import type { Event } from '../../../../openapi/types.ts';

/** The page the agent's browser shows: the latest browse observation's url and screenshot. */
export interface BrowserPage {
  url: string;
  screenshot: string | null;
}

const BROWSE_OBSERVATIONS = new Set(['browse', 'browse_interactive']);

export function latestBrowserPage(events: readonly Event[]): BrowserPage | null {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index] as Event;
    if (event.observation !== undefined && BROWSE_OBSERVATIONS.has(event.observation))
      return { url: event.extras?.url ?? '', screenshot: event.extras?.screenshot ?? null };
  }
  return null;
}

/** A selector that keeps returning the same page object until a newer browse observation arrives. */
export function createBrowserPageSelector(): (snapshot: { events: readonly Event[] }) => BrowserPage | null {
  let last: BrowserPage | null = null;
  return (snapshot) => {
    const page = latestBrowserPage(snapshot.events);
    if (page?.url !== last?.url || page?.screenshot !== last?.screenshot) last = page;
    return last;
  };
}
