import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { layOut, visibleRange } from './virtual-rows.ts';

export interface VirtualRowsOptions {
  /** The scrolling element; the rows are positioned inside it from its top. */
  scrollRef: RefObject<HTMLElement | null>;
  count: number;
  /** Each row's key (the same for a row wherever it moves in the list); a new function when the rows change. */
  keyOf: (index: number) => string;
  /** The height of a row not measured yet. */
  estimate: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number;
}

export interface VirtualRow {
  index: number;
  key: string;
  /** Where the row starts, in px from the top of the list. */
  start: number;
}

export interface VirtualRows {
  rows: VirtualRow[];
  /** The list's height. */
  totalSize: number;
  /** The ref of each rendered row's element, which carries `data-index` and `data-key`: measures it now and whenever it resizes. */
  measure: (element: HTMLElement | null) => (() => void) | undefined;
  /** Scrolls so that the row's top (`start`) or bottom (`end`) is at the viewport's edge. */
  scrollToIndex: (index: number, align: 'start' | 'end') => void;
}

interface Viewport {
  top: number;
  height: number;
}

/**
 * A virtualised list of rows of different heights, each measured once rendered. It opens at the
 * list's end (only the newest rows are ever rendered before the first paint), re-renders within
 * the scroll event, and keeps what the reader sees in place when rows above it change height.
 */
export function useVirtualRows({ scrollRef, count, keyOf, estimate, overscan }: VirtualRowsOptions): VirtualRows {
  const [sizes] = useState(() => new Map<string, number>());
  // Bumped with every measurement that changed a size; `measured` is the version rendered.
  const version = useRef(0);
  const [measured, setMeasured] = useState(0);
  // Scroll owed to rows above the viewport that changed height, applied once the list has the new height.
  const owedScroll = useRef(0);
  // Until the viewport has been read with rows in the list, it is at the list's end.
  const [viewport, setViewport] = useState<Viewport>({ top: Infinity, height: 0 });

  const starts = useMemo(
    () => layOut(count, (i) => sizes.get(keyOf(i)) ?? estimate),
    // `measured` stands for the sizes, which change in place.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [count, keyOf, estimate, sizes, measured],
  );
  const totalSize = starts[count] as number;
  // What the last commit drew, for scrolls asked for outside rendering (set before the list's own effects run).
  const drawn = useRef({ starts, viewport });
  const range = visibleRange(starts, viewport.top, viewport.height, overscan);
  const first = range?.first ?? 0;
  const last = range?.last ?? -1;
  const rows = useMemo(() => {
    const shown: VirtualRow[] = [];
    for (let index = first; index <= last; index++) {
      shown.push({ index, key: keyOf(index), start: starts[index] as number });
    }
    return shown;
  }, [first, last, keyOf, starts]);

  useLayoutEffect(() => {
    drawn.current = { starts, viewport };
  });

  const readViewport = useCallback(() => {
    const element = scrollRef.current;
    // Detached or hidden (moving into another tile or window), the element says nothing about the reader.
    if (!element || element.clientHeight === 0) return;
    const { scrollTop: top, clientHeight: height } = element;
    setViewport((now) => (now.top === top && now.height === height ? now : { top, height }));
  }, [scrollRef]);

  const resize = useCallback(
    (element: HTMLElement, height: number) => {
      const key = element.dataset.key;
      if (key === undefined || sizes.get(key) === height) return false;
      const scroller = scrollRef.current;
      // A row starting above the viewport pushes what the reader sees by as much as it grew.
      if (scroller && element.getBoundingClientRect().top < scroller.getBoundingClientRect().top) {
        owedScroll.current += height - (sizes.get(key) ?? estimate);
      }
      sizes.set(key, height);
      version.current += 1;
      return true;
    },
    [sizes, scrollRef, estimate],
  );

  // Rows are measured by a ResizeObserver, which reports a row's size once the frame is laid out
  // and before it is painted: no layout is forced for it, and the re-render with the sizes is
  // painted in the same frame. A row mounted by such a re-render (inside an observer's callback)
  // would be reported only in the next frame, the browser counting it as a loop: it is measured
  // at once instead, and observed from the next frame.
  const inObserver = useRef(false);
  const rerenderFromObserver = useCallback((update: () => void) => {
    inObserver.current = true;
    try {
      flushSync(update);
    } finally {
      inObserver.current = false;
    }
  }, []);
  // Created with the first row (row refs are set before any effect of the list runs).
  const rowObserver = useRef<ResizeObserver | null>(null);
  const measure = useCallback(
    (element: HTMLElement | null) => {
      if (!element) return undefined;
      const measureNow = () => {
        if (resize(element, element.getBoundingClientRect().height)) setMeasured(version.current);
      };
      if (typeof ResizeObserver === 'undefined') {
        measureNow();
        return undefined;
      }
      rowObserver.current ??= new ResizeObserver((entries) => {
        let changed = false;
        for (const entry of entries) {
          const row = entry.target as HTMLElement;
          if (!row.isConnected) continue;
          if (resize(row, entry.borderBoxSize[0]?.blockSize ?? row.getBoundingClientRect().height)) changed = true;
        }
        if (changed) rerenderFromObserver(() => setMeasured(version.current));
      });
      const observer = rowObserver.current;
      if (!inObserver.current) {
        observer.observe(element);
        return () => observer.unobserve(element);
      }
      measureNow();
      const frame = requestAnimationFrame(() => observer.observe(element));
      return () => {
        cancelAnimationFrame(frame);
        observer.unobserve(element);
      };
    },
    [resize, rerenderFromObserver],
  );
  useLayoutEffect(() => () => rowObserver.current?.disconnect(), []);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const onScroll = () => flushSync(readViewport);
    element.addEventListener('scroll', onScroll, { passive: true });
    const sizeObserver =
      typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => rerenderFromObserver(readViewport));
    sizeObserver?.observe(element);
    return () => {
      element.removeEventListener('scroll', onScroll);
      sizeObserver?.disconnect();
    };
  }, [scrollRef, readViewport, rerenderFromObserver]);

  // After a commit: settle the scroll owed to resized rows once the list is drawn at their sizes
  // (not in the commit that measured them); read the viewport until it is laid out. Reading it
  // after every commit would force the page's layout each time: scroll events and the scroller's
  // resizes keep it up to date instead.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element && owedScroll.current !== 0 && measured === version.current) {
      element.scrollTop += owedScroll.current;
      owedScroll.current = 0;
    }
    if (count > 0 && viewport.height === 0) readViewport();
  });

  const scrollToIndex = useCallback(
    (index: number, align: 'start' | 'end') => {
      const element = scrollRef.current;
      const { starts, viewport } = drawn.current;
      const count = starts.length - 1;
      if (!element || index < 0 || index >= count) return;
      // Not read yet in this commit (its first with rows): read now.
      const height = viewport.height || element.clientHeight;
      if (height === 0) return;
      // The scroll event, dispatched before the next paint, renders the rows there: reading the
      // position back now would force a layout.
      element.scrollTop = align === 'start' ? (starts[index] as number) : (starts[index + 1] as number) - height;
    },
    [scrollRef],
  );

  return { rows, totalSize, measure, scrollToIndex };
}
