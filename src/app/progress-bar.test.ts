import { describe, expect, it, vi } from 'vitest';
import { PROGRESS_BAR_SETTINGS, showProgressWhileNavigating } from './progress-bar.ts';

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

describe('navigation progress bar', () => {
  it('is configured as the spec says', () => {
    expect(PROGRESS_BAR_SETTINGS).toEqual({ speed: 500, minimum: 0.1, trickleSpeed: 200, showSpinner: false });
    const progress = { configure: vi.fn(), start: vi.fn(), done: vi.fn() };
    showProgressWhileNavigating(fakeRouter(), progress);
    expect(progress.configure).toHaveBeenCalledWith(expect.objectContaining(PROGRESS_BAR_SETTINGS));
  });

  it('runs from a navigation to another page until it is resolved', () => {
    const router = fakeRouter();
    const progress = { configure: vi.fn(), start: vi.fn(), done: vi.fn() };
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
