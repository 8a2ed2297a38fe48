import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { layOut, measuredIndices, rowAt, visibleRange, type MeasuredRow } from './virtual-rows.ts';

export interface VirtualRowsOptions {
  /** The scrolling element, styled with `virtualScroller` (virtual-rows.css.ts); the rows are positioned inside it from its top. */
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
  /** The viewport's height, 0 until it has been read. */
  viewportHeight: number;
  /** The ref of each rendered row's element, which carries `data-index` and `data-key`: measures it now and whenever it resizes. */
  measure: (element: HTMLElement | null) => (() => void) | undefined;
  /** Scrolls to the list's end. */
  scrollToEnd: () => void;
}

interface Viewport {
  /** How far the viewport's bottom is from the list's end. */
  fromEnd: number;
  height: number;
}

/**
 * A virtualised list of rows of different heights, each measured once rendered. The scroller lays
 * its content out from the bottom (virtual-rows.css.ts: column-reverse), so its position counts from
 * the list's end (scrollTop 0 there, negative above it): it opens at the end, and stays there as
 * rows are added or measured without a scroll, which would force a layout in every commit. Only
 * the newest rows are rendered before the first paint; it re-renders within the scroll event, and
 * keeps what the reader sees in place while they are away from the end.
 */
export function useVirtualRows({ scrollRef, count, keyOf, estimate, overscan }: VirtualRowsOptions): VirtualRows {
  const [sizes] = useState(() => new Map<string, MeasuredRow>());
  // Bumped with every measurement that changed a size; `measured` is the version rendered.
  const version = useRef(0);
  const [measured, setMeasured] = useState(0);
  // Until the viewport has been read with rows in the list, it is at the list's end.
  const [viewport, setViewport] = useState<Viewport>({ fromEnd: 0, height: 0 });

  const starts = useMemo(
    () => layOut(count, estimate, measuredIndices(sizes, count, keyOf)),
    // `measured` stands for the sizes, which change in place.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [count, keyOf, estimate, sizes, measured],
  );
  const totalSize = starts[count] as number;
  // The viewport the last commit drew, for scrolls asked for outside rendering (set before the list's own effects run).
  const drawnViewport = useRef(viewport);
  const range = visibleRange(starts, viewportTop(totalSize, viewport), viewport.height, overscan);
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
    drawnViewport.current = viewport;
  });

  const readViewport = useCallback(() => {
    const element = scrollRef.current;
    // Detached or hidden (moving into another tile or window), the element says nothing about the reader.
    if (!element || element.clientHeight === 0) return;
    const { scrollTop, clientHeight: height } = element;
    const fromEnd = -scrollTop;
    setViewport((now) => (now.fromEnd === fromEnd && now.height === height ? now : { fromEnd, height }));
  }, [scrollRef]);

  const resize = useCallback(
    (element: HTMLElement, height: number) => {
      const key = element.dataset.key;
      const index = Number(element.dataset.index);
      if (key === undefined || sizes.get(key)?.height === height) return false;
      sizes.set(key, { height, index });
      version.current += 1;
      return true;
    },
    [sizes],
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

  // Away from the end, what the reader sees stays in place when rows after it are added or change
  // height (the scroller keeps its end in place, so they would move it up): the first row in view
  // keeps its distance from the end, until the reader scrolls. At the end nothing is kept: the end
  // is what is followed. (When the viewport itself changes height, its bottom stays, as the browser
  // keeps it.)
  const anchor = useRef<Anchor | null>(null);
  useLayoutEffect(() => {
    const element = scrollRef.current;
    const kept = anchor.current;
    anchor.current = null;
    if (!element || count === 0 || atEnd(viewport)) return;
    const index = kept && kept.seen === viewport.fromEnd ? indexOfKey(kept.key, kept.index, count, keyOf) : -1;
    if (kept && index !== -1) {
      const toEnd = totalSize - (starts[index] as number);
      // Read back in the scroll event, which renders the rows there.
      if (toEnd !== kept.toEnd) element.scrollTop -= toEnd - kept.toEnd;
      anchor.current = { ...kept, index, toEnd };
      return;
    }
    const first = rowAt(starts, viewportTop(totalSize, viewport));
    anchor.current = {
      key: keyOf(first),
      index: first,
      toEnd: totalSize - (starts[first] as number),
      seen: viewport.fromEnd,
    };
  });

  // After a commit, read the viewport until it is laid out. Reading it after every commit would
  // force the page's layout each time: scroll events and the scroller's resizes keep it up to
  // date instead.
  useLayoutEffect(() => {
    if (count > 0 && viewport.height === 0) readViewport();
  });

  const scrollToEnd = useCallback(() => {
    const element = scrollRef.current;
    // Drawn at the end, it is there still: a scroll would only force a layout. Elsewhere, the
    // scroll event (dispatched before the next paint) renders the rows at the end.
    if (element && !atEnd(drawnViewport.current)) element.scrollTop = 0;
  }, [scrollRef]);

  return { rows, totalSize, viewportHeight: viewport.height, measure, scrollToEnd };
}

/** The first row in view, kept at its distance from the list's end while the reader is away from it. */
interface Anchor {
  key: string;
  index: number;
  toEnd: number;
  /** The viewport's distance from the end when it was found: another is the reader's scroll (or the list's, read back). */
  seen: number;
}

/** At the list's end (within a pixel: positions can be fractional). */
function atEnd(viewport: Viewport): boolean {
  return viewport.fromEnd < 1;
}

/** Where the viewport starts from the list's top. */
function viewportTop(total: number, viewport: Viewport): number {
  return Math.max(total - viewport.height - viewport.fromEnd, 0);
}

/** The index of the row with `key`, looked for first where it was; -1 when it is gone. */
function indexOfKey(key: string, near: number, count: number, keyOf: (index: number) => string): number {
  if (near < count && keyOf(near) === key) return near;
  for (let index = 0; index < count; index++) if (keyOf(index) === key) return index;
  return -1;
}
