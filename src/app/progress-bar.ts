import NProgress from 'nprogress';

export const PROGRESS_BAR_SETTINGS = { speed: 500, minimum: 0.1, trickleSpeed: 200, showSpinner: false } as const;
/** nprogress's own markup gives the bar an invalid ARIA role (role="bar"); the bar is decoration, hidden from assistive technology. */
const PROGRESS_BAR_MARKUP = {
  template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
  barSelector: '.bar',
};

/** The bar, configured as the spec says; for pages that start and end it themselves (the landing page). */
export function configuredProgressBar(progress: Pick<typeof NProgress, 'configure'> = NProgress) {
  return progress.configure({ ...PROGRESS_BAR_SETTINGS, ...PROGRESS_BAR_MARKUP });
}

interface NavigationEvents {
  subscribe(event: 'onBeforeLoad' | 'onResolved', listener: (event: { pathChanged: boolean }) => void): () => void;
}

/** A thin bar at the top of the page from the start of a navigation to another page until it has loaded. */
export function showProgressWhileNavigating(
  router: NavigationEvents,
  progress: Pick<typeof NProgress, 'configure' | 'start' | 'done'> = NProgress,
) {
  configuredProgressBar(progress);
  const stopWatchingStarts = router.subscribe('onBeforeLoad', ({ pathChanged }) => {
    if (pathChanged) progress.start();
  });
  const stopWatchingEnds = router.subscribe('onResolved', () => progress.done());
  return () => {
    stopWatchingStarts();
    stopWatchingEnds();
  };
}
