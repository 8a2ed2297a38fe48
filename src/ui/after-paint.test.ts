import { describe, expect, it, vi } from 'vitest';
import { afterNextPaint } from './after-paint.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('afterNextPaint', () => {
  it('runs the callback in a task after the next frame, not within it', async () => {
    const calls: string[] = [];
    afterNextPaint(() => calls.push('after the paint'));
    requestAnimationFrame(() => calls.push('the frame'));
    expect(calls).toEqual([]);
    await settle();
    expect(calls).toEqual(['the frame', 'after the paint']);
  });

  it('is cancelled before the frame, and between the frame and its task', async () => {
    const early = vi.fn();
    afterNextPaint(early)();
    const late = vi.fn();
    const cancelLate = afterNextPaint(late);
    requestAnimationFrame(cancelLate);
    await settle();
    expect(early).not.toHaveBeenCalled();
    expect(late).not.toHaveBeenCalled();
  });
});
