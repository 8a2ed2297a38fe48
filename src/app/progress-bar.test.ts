import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressBar, PROGRESS_BAR_SETTINGS, showProgressWhileNavigating, trickleStep } from './progress-bar.ts';

function fakeRouter() {
  const listeners = new Map<string, (event: { pathChanged: boolean }) => void>();
  return {
    listeners,
    subscribe: vi.fn((event: 'onBeforeLoad' | 'onResolved', listener: (event: { pathChanged: boolean }) => void) => {
      listeners.set(event, listener);
      return () => listeners.delete(event);
    }),
  };
}

const shown = () => document.getElementById('nprogress');
/** Where the bar stands, in % of the page's width (0 at the left, 100 at the end). */
const position = () => {
  const transform = (shown()?.firstElementChild as HTMLElement | null)?.style.transform ?? '';
  return 100 + Number(/translate3d\((-?[\d.]+)%/.exec(transform)?.[1]);
};

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('navigation progress bar', () => {
  it('is configured as the spec says', () => {
    expect(PROGRESS_BAR_SETTINGS).toEqual({ speed: 500, minimum: 0.1, trickleSpeed: 200, showSpinner: false });
  });

  it('starts at 10%, creeps on every 200 ms and never reaches the end by itself', () => {
    vi.useFakeTimers();
    const bar = createProgressBar();
    bar.start();
    expect(shown()?.querySelector('.bar')?.getAttribute('aria-hidden')).toBe('true');
    expect(position()).toBeCloseTo(10);
    vi.advanceTimersByTime(199);
    expect(position()).toBeCloseTo(10);
    vi.advanceTimersByTime(1);
    expect(position()).toBeCloseTo(20);
    vi.advanceTimersByTime(200 * 1000);
    expect(position()).toBeGreaterThan(99);
    expect(position()).toBeLessThan(100);
    expect(trickleStep(0.995)).toBe(0);
  });

  it('runs to the end when done, fades out after 500 ms and is gone 500 ms later; a new start shows it again', () => {
    vi.useFakeTimers();
    const bar = createProgressBar();
    bar.done();
    expect(shown()).toBeNull();
    bar.start();
    vi.advanceTimersByTime(400);
    bar.done();
    expect(position()).toBe(100);
    vi.advanceTimersByTime(500);
    expect(shown()?.style.opacity).toBe('0');
    vi.advanceTimersByTime(500);
    expect(shown()).toBeNull();
    bar.start();
    expect(position()).toBeCloseTo(10);
    // A start while it fades out brings it back from the start.
    bar.done();
    vi.advanceTimersByTime(600);
    bar.start();
    expect(shown()?.style.opacity).toBe('1');
    expect(position()).toBeCloseTo(10);
    vi.advanceTimersByTime(1000);
    expect(shown()).not.toBeNull();
  });

  it('runs from a navigation to another page until it is resolved', () => {
    const router = fakeRouter();
    const progress = { start: vi.fn(), done: vi.fn() };
    const stop = showProgressWhileNavigating(router, progress);
    router.listeners.get('onBeforeLoad')?.({ pathChanged: false });
    expect(progress.start).not.toHaveBeenCalled();
    router.listeners.get('onBeforeLoad')?.({ pathChanged: true });
    router.listeners.get('onResolved')?.({ pathChanged: true });
    expect(progress.start).toHaveBeenCalledTimes(1);
    expect(progress.done).toHaveBeenCalledTimes(1);
    stop();
    expect(router.listeners.size).toBe(0);
  });
});
