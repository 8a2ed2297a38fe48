import { useLayoutEffect, useRef } from 'react';
import * as styles from './workspace.css.ts';

/**
 * Where a tab rendered once elsewhere (into `host`, through a portal) is shown: the host element
 * moves into this slot, in this page or a popout window's, and its React tree stays mounted. A
 * moved element forgets its scroll positions: the tab puts them back itself (the chat's list
 * follows its end, or returns to where the reader was).
 */
export function HostSlot({ host }: { host: HTMLElement }) {
  const slot = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = slot.current;
    if (!element) return;
    element.appendChild(host);
    return () => {
      // Another slot may have taken it already.
      if (host.parentNode === element) element.removeChild(host);
    };
  }, [host]);
  return <div ref={slot} className={styles.tile} />;
}
