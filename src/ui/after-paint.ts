/**
 * Runs `callback` in a task after the next frame has been painted. An effect runs before the
 * paint when React commits synchronously (a layout effect's update, a discrete event): code loaded
 * from one would add its preload links and evaluate in that frame.
 */
export function afterNextPaint(callback: () => void): void {
  requestAnimationFrame(() => setTimeout(callback));
}

/**
 * Runs `callback` when the browser is idle, at the latest after `timeoutMs` (after the next paint
 * where it cannot tell): for code nobody waits for, which would otherwise take a share of the
 * frames a page still draws as it opens.
 */
export function whenIdle(callback: () => void, timeoutMs = 2_000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => callback(), { timeout: timeoutMs });
  else afterNextPaint(callback);
}
