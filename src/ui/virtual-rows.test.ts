import { describe, expect, it } from 'vitest';
import { layOut, measuredIndices, rowAt, visibleRange, type MeasuredRow } from './virtual-rows.ts';

const none = new Map<number, number>();
/** Rows of the given heights, each measured. */
const measured = (heights: number[]) =>
  layOut(heights.length, 0, new Map(heights.map((height, index) => [index, height])));

describe('virtual rows', () => {
  it('lays rows out one after another', () => {
    expect([...measured([10, 20, 5])]).toEqual([0, 10, 30, 35]);
    expect([...layOut(0, 10, none)]).toEqual([0]);
    // Rows not measured are as high as the estimate; a measurement beyond the list is not a row.
    expect([
      ...layOut(
        4,
        50,
        new Map([
          [1, 20],
          [9, 70],
        ]),
      ),
    ]).toEqual([0, 50, 70, 120, 170]);
  });

  // Ten rows of 100 px: 0–100, 100–200, …, 900–1000.
  const starts = layOut(10, 100, none);

  it('shows the rows the viewport covers, those touching its edges included', () => {
    expect(visibleRange(starts, 250, 300, 0)).toEqual({ first: 2, last: 5 });
    expect(visibleRange(starts, 200, 300, 0)).toEqual({ first: 1, last: 5 });
    expect(visibleRange(starts, 0, 150, 0)).toEqual({ first: 0, last: 1 });
  });

  it('finds the row at a position: the first ending below it', () => {
    expect(rowAt(starts, 0)).toBe(0);
    expect(rowAt(starts, 99)).toBe(0);
    expect(rowAt(starts, 100)).toBe(1);
    expect(rowAt(starts, 950)).toBe(9);
    expect(rowAt(starts, 5000)).toBe(9);
    expect(rowAt(measured([0, 0, 10]), 0)).toBe(2);
  });

  it('adds the overscan on each side within the list', () => {
    expect(visibleRange(starts, 450, 100, 2)).toEqual({ first: 2, last: 7 });
    expect(visibleRange(starts, 0, 150, 3)).toEqual({ first: 0, last: 4 });
    expect(visibleRange(starts, 850, 150, 3)).toEqual({ first: 5, last: 9 });
  });

  it('reads a position past the end, or Infinity, as the end and one above the top as the top', () => {
    expect(visibleRange(starts, Infinity, 250, 0)).toEqual({ first: 7, last: 9 });
    expect(visibleRange(starts, 5000, 250, 0)).toEqual({ first: 7, last: 9 });
    expect(visibleRange(starts, -40, 150, 0)).toEqual({ first: 0, last: 1 });
    // Not laid out yet (no height): the last row.
    expect(visibleRange(starts, Infinity, 0, 0)).toEqual({ first: 9, last: 9 });
  });

  it('shows every row of a list shorter than its viewport, and of rows not measured (no height)', () => {
    expect(visibleRange(layOut(3, 100, none), 0, 720, 0)).toEqual({ first: 0, last: 2 });
    expect(visibleRange(layOut(4, 0, none), 0, 720, 0)).toEqual({ first: 0, last: 3 });
  });

  it('has nothing to show without rows', () => {
    expect(visibleRange(layOut(0, 100, none), 0, 720, 3)).toBeNull();
  });

  describe('measured rows by index', () => {
    const keys = (ids: number[]) => (index: number) => `event:${ids[index]}`;

    it('finds each where it was measured, reading one key per measured row when the list grew at its end', () => {
      const sizes = new Map<string, MeasuredRow>([
        ['event:7', { height: 40, index: 2 }],
        ['event:9', { height: 90, index: 3 }],
      ]);
      const read: number[] = [];
      const keyOf = keys([4, 5, 7, 9, 10, 11]);
      const byIndex = measuredIndices(sizes, 6, (index) => (read.push(index), keyOf(index)));
      expect([...byIndex]).toEqual([
        [2, 40],
        [3, 90],
      ]);
      expect(read).toEqual([2, 3]);
    });

    it('finds rows that moved (older rows put in front) and forgets rows no longer in the list', () => {
      const sizes = new Map<string, MeasuredRow>([
        ['event:7', { height: 40, index: 0 }],
        ['event:9', { height: 90, index: 1 }],
        ['pending:1', { height: 30, index: 2 }],
      ]);
      const byIndex = measuredIndices(sizes, 5, keys([3, 5, 7, 9, 12]));
      expect([...byIndex].sort(([a], [b]) => a - b)).toEqual([
        [2, 40],
        [3, 90],
      ]);
      expect([...sizes]).toEqual([
        ['event:7', { height: 40, index: 2 }],
        ['event:9', { height: 90, index: 3 }],
      ]);
      // Found again where they are now: the next layout reads only their keys.
      const read: number[] = [];
      measuredIndices(sizes, 5, (index) => (read.push(index), keys([3, 5, 7, 9, 12])(index)));
      expect(read).toEqual([2, 3]);
    });

    it('lays the measured rows out where they are now', () => {
      const sizes = new Map<string, MeasuredRow>([['event:9', { height: 10, index: 0 }]]);
      expect([...layOut(3, 50, measuredIndices(sizes, 3, keys([5, 9, 12])))]).toEqual([0, 50, 60, 110]);
    });
  });
});
