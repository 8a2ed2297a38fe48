/**
 * Runs `callback` in a task after the next frame has been painted. An effect runs before the
 * paint when React commits synchronously (a layout effect's update, a discrete event): code loaded
 * from one would add its preload links and evaluate in that frame.
 */
export function afterNextPaint(callback: () => void): void {
  requestAnimationFrame(() => setTimeout(callback));
}
