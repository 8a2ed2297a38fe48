import type { KeyboardEvent, PointerEvent } from 'react';
import { isReaderScroll } from './rules/chat-rows.ts';

/** The keys that scroll a focused list. */
const SCROLL_KEYS: ReadonlySet<string> = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

/**
 * The reader's own scrolling of the chat: the scroller's handlers note their wheel, touch, scroll
 * keys and presses on the scroll bar, and `byReader` tells whether a scroll event followed one.
 */
export function createReaderInput() {
  let inputAt = -Infinity;
  const note = (event: { timeStamp: number }) => {
    inputAt = event.timeStamp;
  };
  return {
    handlers: {
      onWheel: note,
      onTouchMove: note,
      onKeyDown: (event: KeyboardEvent) => {
        if (SCROLL_KEYS.has(event.key)) note(event);
      },
      // A press on the scroller itself, not on a row: its scroll bar.
      onPointerDown: (event: PointerEvent) => {
        if (event.target === event.currentTarget) note(event);
      },
    },
    byReader: (scroll: { timeStamp: number }) => isReaderScroll(scroll.timeStamp, inputAt),
    /** The list goes to its end on its own (the user's new message, the button): later scrolls are its own. */
    forget: () => {
      inputAt = -Infinity;
    },
  };
}
