import { createProgressBar, type ProgressBar } from '../../app/progress-bar.ts';

/** Spec §9: the landing counters animate for 2 seconds. */
export const COUNT_UP_MS = 2000;

/** The counter's value `elapsedMs` into the animation: from 0 to `target`, easing out, whole numbers. */
export function countAt(target: number, elapsedMs: number): number {
  const progress = Math.min(1, Math.max(0, elapsedMs / COUNT_UP_MS));
  return Math.round(target * (1 - (1 - progress) ** 3));
}

export interface LandingEnvironment {
  now: () => number;
  requestFrame: (callback: () => void) => number;
  cancelFrame: (handle: number) => void;
  /** The visitor asked for less motion: the counters show their figures at once. */
  reducedMotion: boolean;
  progress: ProgressBar;
}

const browserEnvironment = (): LandingEnvironment => ({
  now: () => performance.now(),
  requestFrame: (callback) => requestAnimationFrame(callback),
  cancelFrame: (handle) => cancelAnimationFrame(handle),
  reducedMotion: matchMedia('(prefers-reduced-motion: reduce)').matches,
  progress: createProgressBar(),
});

/**
 * The landing page's behaviour on its markup (LandingPage), the same whether the server sent it
 * prerendered or the application rendered it: the banner's close button hides it for this page
 * view, `[data-count-to]` figures count up, and leaving for another page of the site shows the top
 * loading bar. Returns what undoes it.
 */
export function activateLanding(root: HTMLElement, environment: LandingEnvironment = browserEnvironment()) {
  const { now, requestFrame, cancelFrame, progress } = environment;
  const banner = root.querySelector<HTMLElement>('[data-landing-banner]');
  const dismiss = () => {
    if (banner) banner.hidden = true;
  };
  banner?.querySelector('[data-dismiss-banner]')?.addEventListener('click', dismiss);

  const counters = [...root.querySelectorAll<HTMLElement>('[data-count-to]')].map((element) => ({
    element,
    target: Number(element.dataset.countTo),
  }));
  let frame = 0;
  if (!environment.reducedMotion && counters.length > 0) {
    const started = now();
    const tick = () => {
      const elapsed = now() - started;
      for (const { element, target } of counters) element.textContent = String(countAt(target, elapsed));
      if (elapsed < COUNT_UP_MS) frame = requestFrame(tick);
    };
    tick();
  }

  // A link to another page of the site: the page unloads, so the bar runs until the next one shows.
  const onClick = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.('a');
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    const url = new URL(link.href, location.href);
    if (url.origin === location.origin && url.pathname !== location.pathname && !link.target) progress.start();
  };
  // Back to this page from the browser's page cache: the bar from leaving it is still running.
  const onPageShow = () => progress.done();
  root.addEventListener('click', onClick);
  window.addEventListener('pageshow', onPageShow);
  return () => {
    cancelFrame(frame);
    banner?.querySelector('[data-dismiss-banner]')?.removeEventListener('click', dismiss);
    root.removeEventListener('click', onClick);
    window.removeEventListener('pageshow', onPageShow);
  };
}
