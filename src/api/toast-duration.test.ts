import { describe, expect, it } from 'vitest';
import { toastDuration } from './toast-duration.ts';

describe('toastDuration', () => {
  it('keeps short errors for 4 s and short successes for 5 s', () => {
    expect(toastDuration('Saved', 'success')).toBe(5000);
    expect(toastDuration('Oops', 'error')).toBe(4000);
  });

  it('grows with the text at 16.67 characters per second times 1.5', () => {
    const text = 'x'.repeat(100);
    expect(toastDuration(text, 'error')).toBe(Math.round((100 / 16.67) * 1.5 * 1000));
    expect(toastDuration(text, 'success')).toBe(Math.round((100 / 16.67) * 1.5 * 1000));
  });

  it('never exceeds 10 s', () => {
    expect(toastDuration('x'.repeat(1000), 'error')).toBe(10_000);
    expect(toastDuration('x'.repeat(1000), 'success')).toBe(10_000);
  });

  it('switches from the minimum to the reading time where they meet', () => {
    // 4 s of reading at this speed is 44.45 characters.
    expect(toastDuration('x'.repeat(44), 'error')).toBe(4000);
    expect(toastDuration('x'.repeat(45), 'error')).toBeGreaterThan(4000);
  });
});
