import type { WorkspaceTab } from './tab-registry.ts';

/** Where a framed tab's tile is, relative to the workspace area; null while the tile is hidden or closed. */
export type SlotRect = { left: number; top: number; width: number; height: number } | null;

export function sameRect(a: SlotRect, b: SlotRect): boolean {
  if (a === null || b === null) return a === b;
  return a.left === b.left && a.top === b.top && a.width === b.width && a.height === b.height;
}

/** A tile's box inside the area it is drawn over; null when it has no size (a hidden tab). */
export function slotRect(tile: DOMRectReadOnly, area: DOMRectReadOnly): SlotRect {
  if (tile.width === 0 || tile.height === 0) return null;
  return { left: tile.left - area.left, top: tile.top - area.top, width: tile.width, height: tile.height };
}

/**
 * The framed tabs' tile positions. Each tile (inside the moving flexlayout tree) reports its box;
 * the tab itself is drawn in a layer that never moves, over that box, so its frame keeps its page.
 */
// Not a machine: it mirrors the tiles' DOM boxes, measured on every resize, with no flow of its own.
export function createSlotStore() {
  const rects = new Map<WorkspaceTab, SlotRect>();
  const listeners = new Set<() => void>();
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    rectOf: (tab: WorkspaceTab): SlotRect => rects.get(tab) ?? null,
    report(tab: WorkspaceTab, rect: SlotRect) {
      if (sameRect(rects.get(tab) ?? null, rect)) return;
      rects.set(tab, rect);
      for (const listener of listeners) listener();
    },
  };
}

export type SlotStore = ReturnType<typeof createSlotStore>;
