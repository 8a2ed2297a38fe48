// The arithmetic of a virtualised list of rows of different heights: where each row starts, and
// which rows a viewport shows.

/**
 * Where each of `count` rows starts, one after another, and where the last ends (`starts[count]`, the
 * list's height): a row is as high as `measured` says by its index, `estimate` when not measured.
 */
export function layOut(count: number, estimate: number, measured: ReadonlyMap<number, number>): Float64Array {
  const marks = [...measured].filter(([index]) => index < count).sort(([a], [b]) => a - b);
  const starts = new Float64Array(count + 1);
  let next = 0;
  let end = 0;
  for (let index = 0; index < count; index++) {
    const mark = marks[next];
    if (mark?.[0] === index) {
      end += mark[1];
      next++;
    } else end += estimate;
    starts[index + 1] = end;
  }
  return starts;
}

/** A row's measured height, and its index when measured or last found. */
export interface MeasuredRow {
  height: number;
  index: number;
}

/**
 * The measured heights by the rows' indices now. Each row is looked for where it was last found,
 * so a list that grew at its end costs one key per measured row, not one per row; when some moved
 * (rows put in front, or removed), every row's key is read once to find them again, and the rows
 * no longer in the list are forgotten.
 */
export function measuredIndices(
  sizes: Map<string, MeasuredRow>,
  count: number,
  keyOf: (index: number) => string,
): Map<number, number> {
  const byIndex = new Map<number, number>();
  let moved = false;
  for (const [key, row] of sizes) {
    if (row.index < count && keyOf(row.index) === key) byIndex.set(row.index, row.height);
    else moved = true;
  }
  if (!moved) return byIndex;
  byIndex.clear();
  const indexOf = new Map<string, number>();
  for (let index = 0; index < count; index++) indexOf.set(keyOf(index), index);
  for (const [key, row] of sizes) {
    const index = indexOf.get(key);
    if (index === undefined) {
      sizes.delete(key);
      continue;
    }
    row.index = index;
    byIndex.set(index, row.height);
  }
  return byIndex;
}

/** The first index in [from, to) whose value is true, `to` when none is (`holds` is false, then true, along the range). */
function firstWhere(from: number, to: number, holds: (index: number) => boolean): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (holds(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The row at `offset` from the list's top: the first that ends below it (the last row beyond the end). */
export function rowAt(starts: Float64Array, offset: number): number {
  const count = starts.length - 1;
  return Math.min(
    firstWhere(0, count, (i) => (starts[i + 1] as number) > offset),
    count - 1,
  );
}

/**
 * The rows to render for a viewport `height` high scrolled to `top` (Infinity: the end), with
 * `overscan` more on each side: the first and last index, or null when there are no rows. A row
 * touching the viewport's edge counts as shown; rows of no height at the top are all shown.
 */
export function visibleRange(
  starts: Float64Array,
  top: number,
  height: number,
  overscan: number,
): { first: number; last: number } | null {
  const count = starts.length - 1;
  if (count === 0) return null;
  const total = starts[count] as number;
  const from = Math.min(Math.max(top, 0), Math.max(total - height, 0));
  const first = Math.min(
    firstWhere(0, count, (i) => (starts[i + 1] as number) >= from),
    count - 1,
  );
  const last = Math.max(firstWhere(first, count, (i) => (starts[i] as number) > from + height) - 1, first);
  return { first: Math.max(first - overscan, 0), last: Math.min(last + overscan, count - 1) };
}
