/**
 * Runs `callback` in a task after the next frame has been painted, and returns what cancels it.
 * An effect runs before the paint when React commits synchronously (a layout effect's update, a
 * discrete event): code loaded from one would add its preload links and evaluate in that frame.
 */
export function afterNextPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
