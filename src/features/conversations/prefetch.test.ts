import { describe, expect, it } from 'vitest';
import { answerOnce } from './prefetch.ts';

describe('answerOnce', () => {
  it('answers the first call with the early answer and later ones by asking anew', async () => {
    let asked = 0;
    const ask = () => Promise.resolve(`fresh ${++asked}`);
    const load = answerOnce(Promise.resolve('early'));
    expect(await load(ask)).toBe('early');
    expect(await load(ask)).toBe('fresh 1');
    expect(asked).toBe(1);
  });

  it('asks anew when the early answer failed, and at once when there was none', async () => {
    const ask = () => Promise.resolve('fresh');
    expect(await answerOnce<string>(Promise.reject(new Error('offline')))(ask)).toBe('fresh');
    expect(await answerOnce<string>(undefined)(ask)).toBe('fresh');
  });
});
