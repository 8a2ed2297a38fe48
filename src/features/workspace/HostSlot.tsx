import { useLayoutEffect, useRef } from 'react';
import * as styles from './workspace.css.ts';

/** What had the focus inside each host as it left its slot: moving an element blurs what it holds. */
const focusLeft = new WeakMap<HTMLElement, HTMLElement>();
const focusedIn = (host: HTMLElement) => {
  const active = host.ownerDocument.activeElement as HTMLElement | null;
  return active && host.contains(active) ? active : undefined;
};

/**
 * Where a tab rendered once elsewhere (into `host`, through a portal) is shown: the host element
 * moves into this slot, in this page or a popout window's, and its React tree stays mounted. A
 * moved element forgets its scroll positions: the tab puts them back itself (the chat's list
 * follows its end, or returns to where the reader was). It loses the focus too, which the slot
 * gives back when nothing else took it: typing in the chat's first frame goes on in its tile.
 */
export function HostSlot({ host }: { host: HTMLElement }) {
  const slot = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = slot.current;
    if (!element) return;
    const focused = focusedIn(host) ?? focusLeft.get(host);
    focusLeft.delete(host);
    element.appendChild(host);
    const now = host.ownerDocument.activeElement;
    if (focused && host.contains(focused) && (!now || now === host.ownerDocument.body))
      focused.focus({ preventScroll: true });
    return () => {
      // Another slot may have taken it already.
      if (host.parentNode !== element) return;
      const within = focusedIn(host);
      if (within) focusLeft.set(host, within);
      element.removeChild(host);
    };
  }, [host]);
  return <div ref={slot} className={styles.tile} />;
}
