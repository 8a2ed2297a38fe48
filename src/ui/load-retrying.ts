import { lazy } from 'react';

// A chunk that fails to download (the server restarting, a moment offline) is asked for again
// instead of failing the page: browsers fetch a failed module anew on the next import(). After
// about a minute of failures the error is the page's (its error screen offers a reload).
const RETRY_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `load()`, tried again after each delay while it fails; the last failure is the answer's. */
export async function loadRetrying<T>(load: () => Promise<T>, delays: readonly number[] = RETRY_DELAYS_MS): Promise<T> {
  for (const delay of delays) {
    try {
      return await load();
    } catch {
      await wait(delay);
    }
  }
  return load();
}

/** React.lazy, whose download is tried again while it fails (React.lazy keeps a failure for good). */
export const lazyRetrying: typeof lazy = (load) => lazy(() => loadRetrying(load));

/**
 * Fetches a stylesheet again (after the same delays) when it failed to load, in its place in the
 * cascade: Vite's preloader counts a chunk's stylesheet as done once tried, even when it failed,
 * so loading the chunk again would leave its styles out (its scripts the browser fetches anew).
 * Listens for the whole document (a link's error does not bubble); answers how to stop.
 */
export function reloadFailedLinks(document: Document, delays: readonly number[] = RETRY_DELAYS_MS): () => void {
  const attempts = new Map<string, number>();
  const onError = (event: Event) => {
    const link = event.target;
    if (!(link instanceof HTMLLinkElement) || link.rel !== 'stylesheet') return;
    const attempt = attempts.get(link.href) ?? 0;
    const delay = delays[attempt];
    if (delay === undefined) return;
    attempts.set(link.href, attempt + 1);
    setTimeout(() => link.replaceWith(link.cloneNode()), delay);
  };
  document.addEventListener('error', onError, true);
  return () => document.removeEventListener('error', onError, true);
}
