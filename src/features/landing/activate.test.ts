import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateLanding, countAt, COUNT_UP_MS, type LandingEnvironment } from './activate.ts';

function markup() {
  const root = document.createElement('div');
  root.innerHTML = `
    <aside data-landing-banner><button type="button" data-dismiss-banner>×</button></aside>
    <span data-count-to="10">10</span><span data-count-to="99">99</span>
    <a href="/dashboard">app</a><a href="#features">features</a><a href="/affiliate" target="_blank">new tab</a>`;
  document.body.append(root);
  return root;
}

/** A clock and frames the test advances by hand. */
function environment(reducedMotion = false) {
  let time = 1000;
  const frames: (() => void)[] = [];
  const env: LandingEnvironment = {
    now: () => time,
    requestFrame: (callback) => frames.push(callback),
    cancelFrame: vi.fn(),
    reducedMotion,
    progress: { start: vi.fn(), done: vi.fn() },
  };
  const advance = (ms: number) => {
    time += ms;
    frames.shift()?.();
  };
  return { env, advance, frames };
}

afterEach(() => document.body.replaceChildren());

describe('landing counters', () => {
  it('count from 0 to the figure over 2 seconds, easing out', () => {
    expect(countAt(99, 0)).toBe(0);
    expect(countAt(99, COUNT_UP_MS / 2)).toBe(87);
    expect(countAt(99, COUNT_UP_MS - 1)).toBe(99);
    expect(countAt(99, COUNT_UP_MS)).toBe(99);
    expect(countAt(10, COUNT_UP_MS * 3)).toBe(10);
    expect(countAt(10, -5)).toBe(0);
  });

  it('animate the figures frame by frame and stop at the figure', () => {
    const root = markup();
    const { env, advance, frames } = environment();
    activateLanding(root, env);
    const figures = () => [...root.querySelectorAll('[data-count-to]')].map((e) => e.textContent);
    expect(figures()).toEqual(['0', '0']);
    advance(1000);
    expect(figures()).toEqual(['9', '87']);
    advance(1000);
    expect(figures()).toEqual(['10', '99']);
    expect(frames).toHaveLength(0);
  });

  it('show the figures at once when the visitor wants less motion', () => {
    const root = markup();
    const { env, frames } = environment(true);
    activateLanding(root, env);
    expect([...root.querySelectorAll('[data-count-to]')].map((e) => e.textContent)).toEqual(['10', '99']);
    expect(frames).toHaveLength(0);
  });
});

describe('landing banner and navigation', () => {
  it('hides the banner for this page view when it is dismissed', () => {
    const root = markup();
    activateLanding(root, environment().env);
    const banner = root.querySelector<HTMLElement>('[data-landing-banner]');
    expect(banner?.hidden).toBe(false);
    root.querySelector<HTMLButtonElement>('[data-dismiss-banner]')?.click();
    expect(banner?.hidden).toBe(true);
  });

  it('starts the loading bar when the visitor leaves for another page of the site, not for an anchor or a new tab', () => {
    const root = markup();
    const { env } = environment();
    activateLanding(root, env);
    const links = root.querySelectorAll('a');
    // The page stays: the test's document handler runs after the page's own (the event bubbles up to it).
    const stay = (event: Event) => event.preventDefault();
    document.addEventListener('click', stay);
    const follow = (link: Element | undefined) =>
      link?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    follow(links[1]);
    follow(links[2]);
    expect(env.progress.start).not.toHaveBeenCalled();
    follow(links[0]);
    document.removeEventListener('click', stay);
    expect(env.progress.start).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('pageshow'));
    expect(env.progress.done).toHaveBeenCalledTimes(1);
  });

  it('undoes everything it set up', () => {
    const root = markup();
    const { env } = environment();
    const undo = activateLanding(root, env);
    undo();
    root.querySelector<HTMLButtonElement>('[data-dismiss-banner]')?.click();
    expect(root.querySelector<HTMLElement>('[data-landing-banner]')?.hidden).toBe(false);
    expect(env.cancelFrame).toHaveBeenCalled();
  });
});
