import { useSyncExternalStore } from 'react';

/** Below 768 px wide the sidebar is a drawer and the workspace shows one tile at a time. */
export const NARROW_SCREEN = '(max-width: 767px)';

const query = () => (typeof window === 'undefined' || !window.matchMedia ? null : window.matchMedia(NARROW_SCREEN));

function subscribe(onChange: () => void) {
  const list = query();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

/** Whether the page is narrow (a phone, a small window); follows resizes. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => query()?.matches ?? false,
    () => false,
  );
}
