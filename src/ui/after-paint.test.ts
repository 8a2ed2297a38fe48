import { describe, expect, it } from 'vitest';
import { afterNextPaint } from './after-paint.ts';

describe('afterNextPaint', () => {
  it('runs the callback in a task after the next frame, not within it', async () => {
    const calls: string[] = [];
    afterNextPaint(() => calls.push('after the paint'));
    requestAnimationFrame(() => calls.push('the frame'));
    expect(calls).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toEqual(['the frame', 'after the paint']);
  });
});
