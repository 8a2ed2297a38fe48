import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REPEAT_WINDOW_MS, withoutRepeats } from './error-toasts.ts';

describe('withoutRepeats', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows an identical text only once within 3 s', () => {
    const show = vi.fn();
    const showOnce = withoutRepeats(show);
    showOnce('Server unavailable');
    vi.advanceTimersByTime(REPEAT_WINDOW_MS - 1);
    showOnce('Server unavailable');
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('shows the text again once 3 s have passed', () => {
    const show = vi.fn();
    const showOnce = withoutRepeats(show);
    showOnce('Server unavailable');
    vi.advanceTimersByTime(REPEAT_WINDOW_MS);
    showOnce('Server unavailable');
    expect(show).toHaveBeenCalledTimes(2);
  });

  it('shows different texts at once', () => {
    const show = vi.fn();
    const showOnce = withoutRepeats(show);
    showOnce('first');
    showOnce('second');
    expect(show.mock.calls).toEqual([['first'], ['second']]);
  });
});
