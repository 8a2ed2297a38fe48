import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadRetrying, reloadFailedLinks } from './load-retrying.ts';

afterEach(() => vi.useRealTimers());

describe('loadRetrying', () => {
  it('asks again after each failure and answers the first success', async () => {
    vi.useFakeTimers();
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('down'))
      .mockRejectedValueOnce(new Error('still down'))
      .mockResolvedValue('module');
    const answer = loadRetrying(load, [100, 200, 400]);
    await vi.advanceTimersByTimeAsync(99);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(200);
    await expect(answer).resolves.toBe('module');
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('answers the last failure once every delay is spent', async () => {
    vi.useFakeTimers();
    let attempt = 0;
    const load = () => Promise.reject(new Error(`failure ${++attempt}`));
    const answer = loadRetrying(load, [10, 10]);
    const settled = expect(answer).rejects.toThrow('failure 3');
    await vi.advanceTimersByTimeAsync(20);
    await settled;
  });
});

describe('reloadFailedLinks', () => {
  // happy-dom loads no stylesheet; it says each one loaded, and the test says which failed.
  beforeEach(() => {
    const happyDom = (window as unknown as { happyDOM: { settings: { handleDisabledFileLoadingAsSuccess: boolean } } })
      .happyDOM;
    happyDom.settings.handleDisabledFileLoadingAsSuccess = true;
  });
  let stop = () => {};
  afterEach(() => stop());
  const link = (rel: string, href: string) => {
    const element = document.createElement('link');
    element.rel = rel;
    element.href = href;
    document.head.append(element);
    return element;
  };

  it('fetches a failed stylesheet again in its place, until its delays are spent', async () => {
    vi.useFakeTimers();
    stop = reloadFailedLinks(document, [100, 200]);
    const before = link('stylesheet', '/before.css');
    const failing = link('stylesheet', '/chunk.css');
    const after = link('stylesheet', '/after.css');
    failing.dispatchEvent(new Event('error'));
    await vi.advanceTimersByTimeAsync(99);
    expect(failing.isConnected).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(failing.isConnected).toBe(false);
    const again = before.nextElementSibling as HTMLLinkElement;
    expect(again).not.toBe(failing);
    expect([again.rel, again.getAttribute('href'), again.nextElementSibling]).toEqual([
      'stylesheet',
      '/chunk.css',
      after,
    ]);

    again.dispatchEvent(new Event('error'));
    await vi.advanceTimersByTimeAsync(200);
    const third = before.nextElementSibling as HTMLLinkElement;
    expect(third).not.toBe(again);
    third.dispatchEvent(new Event('error'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(before.nextElementSibling).toBe(third);
  });

  it('leaves other links, and stylesheets that loaded, alone', async () => {
    vi.useFakeTimers();
    stop = reloadFailedLinks(document, [100]);
    const preload = link('modulepreload', '/chunk.js');
    const loaded = link('stylesheet', '/loaded.css');
    preload.dispatchEvent(new Event('error'));
    loaded.dispatchEvent(new Event('load'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect([preload.isConnected, loaded.isConnected]).toEqual([true, true]);
  });
});
