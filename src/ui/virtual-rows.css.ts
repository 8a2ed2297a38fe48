import { style } from '@vanilla-extract/css';

// What use-virtual-rows.ts needs of the elements it works with.

/** The scroller: bottom-anchored, so its end stays in view as the list grows, without a scroll. */
export const virtualScroller = style({
  display: 'flex',
  flexDirection: 'column-reverse',
  // The list keeps the reader's place itself; the browser's anchoring would move it a second time.
  overflowAnchor: 'none',
});

/** The rows' container: at least the viewport's height, so that a short list starts at the top. */
export const virtualBody = style({ position: 'relative', width: '100%', flexShrink: 0, minHeight: '100%' });
