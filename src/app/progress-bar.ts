/** The spec's settings of the top loading bar: its moves take 500 ms, it starts at 10% and creeps on every 200 ms, without a spinner. */
export const PROGRESS_BAR_SETTINGS = { speed: 500, minimum: 0.1, trickleSpeed: 200, showSpinner: false } as const;

export interface ProgressBar {
  start(): void;
  done(): void;
}

/** How far the bar creeps from `status`: big steps early, ever smaller ones, and never to the end. */
export function trickleStep(status: number): number {
  if (status < 0.2) return 0.1;
  if (status < 0.5) return 0.04;
  if (status < 0.8) return 0.02;
  if (status < 0.99) return 0.005;
  return 0;
}

/**
 * A thin bar at the top of the page (#nprogress > .bar > .peg, styled in global.css.ts, the markup
 * of nprogress, whose behaviour it keeps): `start` shows it at 10% and lets it creep on, `done`
 * runs it to the end, then it fades out and is removed. It is decoration, hidden from assistive
 * technology.
 */
export function createProgressBar(
  document: Document = window.document,
  { speed, minimum, trickleSpeed } = PROGRESS_BAR_SETTINGS,
): ProgressBar {
  let status: number | null = null;
  let root: HTMLElement | null = null;
  let creeping: ReturnType<typeof setInterval> | undefined;
  let leaving: ReturnType<typeof setTimeout>[] = [];
  const stop = () => {
    clearInterval(creeping);
    leaving.forEach(clearTimeout);
    leaving = [];
  };
  const set = (to: number) => {
    status = Math.min(Math.max(to, minimum), 1);
    if (!root) {
      root = document.createElement('div');
      root.id = 'nprogress';
      root.innerHTML = '<div class="bar" aria-hidden="true"><div class="peg"></div></div>';
      document.body.append(root);
    }
    root.style.opacity = '1';
    root.style.transition = '';
    const bar = root.firstElementChild as HTMLElement;
    bar.style.transition = `transform ${speed}ms ease`;
    bar.style.transform = `translate3d(${(status - 1) * 100}%,0,0)`;
  };
  return {
    start() {
      stop();
      set(status !== null && status < 1 ? status : 0);
      creeping = setInterval(() => set((status ?? 0) + trickleStep(status ?? 0)), trickleSpeed);
    },
    done() {
      if (status === null) return;
      stop();
      set(1);
      const shown = root as HTMLElement;
      leaving = [
        setTimeout(() => {
          shown.style.transition = `opacity ${speed}ms linear`;
          shown.style.opacity = '0';
        }, speed),
        setTimeout(() => {
          shown.remove();
          root = null;
          status = null;
        }, speed * 2),
      ];
    },
  };
}

interface NavigationEvents {
  subscribe(event: 'onBeforeLoad' | 'onResolved', listener: (event: { pathChanged: boolean }) => void): () => void;
}

/** The bar from the start of a navigation to another page until it has loaded. */
export function showProgressWhileNavigating(router: NavigationEvents, progress: ProgressBar = createProgressBar()) {
  const stopWatchingStarts = router.subscribe('onBeforeLoad', ({ pathChanged }) => {
    if (pathChanged) progress.start();
  });
  const stopWatchingEnds = router.subscribe('onResolved', () => progress.done());
  return () => {
    stopWatchingStarts();
    stopWatchingEnds();
  };
}
