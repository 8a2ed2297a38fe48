import { describe, expect, it } from 'vitest';
import { layOut, rowAt, visibleRange } from './virtual-rows.ts';

describe('virtual rows', () => {
  it('lays rows out one after another', () => {
    expect([...layOut(3, (i) => [10, 20, 5][i] as number)]).toEqual([0, 10, 30, 35]);
    expect([...layOut(0, () => 10)]).toEqual([0]);
  });

  // Ten rows of 100 px: 0–100, 100–200, …, 900–1000.
  const starts = layOut(10, () => 100);

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
    expect(
      rowAt(
        layOut(3, (i) => [0, 0, 10][i] as number),
        0,
      ),
    ).toBe(2);
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
    expect(
      visibleRange(
        layOut(3, () => 100),
        0,
        720,
        0,
      ),
    ).toEqual({ first: 0, last: 2 });
    expect(
      visibleRange(
        layOut(4, () => 0),
        0,
        720,
        0,
      ),
    ).toEqual({ first: 0, last: 3 });
  });

  it('has nothing to show without rows', () => {
    expect(
      visibleRange(
        layOut(0, () => 100),
        0,
        720,
        3,
      ),
    ).toBeNull();
  });
});
