import { describe, expect, it } from 'vitest';
import { createSlotStore, sameRect, slotRect } from './framed-slots.ts';

const box = (left: number, top: number, width: number, height: number) =>
  DOMRectReadOnly.fromRect({ x: left, y: top, width, height });

describe('framed tab slots', () => {
  it('places a tile relative to the workspace area, nowhere when it has no size', () => {
    expect(slotRect(box(110, 60, 300, 200), box(10, 50, 1000, 800))).toEqual({
      left: 100,
      top: 10,
      width: 300,
      height: 200,
    });
    expect(slotRect(box(0, 0, 0, 0), box(10, 50, 1000, 800))).toBeNull();
  });

  it('tells listeners only when a tile really moved', () => {
    const store = createSlotStore();
    let calls = 0;
    store.subscribe(() => (calls += 1));
    store.report('app', { left: 1, top: 2, width: 3, height: 4 });
    store.report('app', { left: 1, top: 2, width: 3, height: 4 });
    expect(calls).toBe(1);
    store.report('app', null);
    expect(calls).toBe(2);
    expect(store.rectOf('app')).toBeNull();
    expect(store.rectOf('vscode')).toBeNull();
    expect(sameRect(null, null)).toBe(true);
  });
});
