import { describe, expect, it } from 'vitest';
import { createNotebookSelector } from './notebook-cells.ts';
import type { Event } from '../../../../openapi/types.ts';

const at = '2026-01-01T00:00:00Z';
const code = (id: number): Event => ({
  id,
  source: 'agent',
  timestamp: at,
  action: 'run_ipython',
  args: { code: 'print(1)' },
});
const output = (id: number): Event => ({
  id,
  source: 'agent',
  timestamp: at,
  observation: 'run_ipython',
  cause: id - 1,
  content: '1',
  extras: { image_urls: ['data:image/png;base64,AA'] },
});

describe('notebook cells', () => {
  it('turns run_ipython actions into input cells and their observations into output cells', () => {
    const select = createNotebookSelector();
    const events = [
      code(1),
      { id: 2, source: 'agent', timestamp: at, action: 'run', args: { command: 'ls' } } as Event,
      output(3),
    ];
    expect(select({ events })).toEqual([
      { id: 1, type: 'input', code: 'print(1)' },
      { id: 3, type: 'output', text: '1', imageUrls: ['data:image/png;base64,AA'] },
    ]);
  });
  it('keeps the same array while no cell changes', () => {
    const select = createNotebookSelector();
    const events = [code(1)];
    const first = select({ events });
    expect(select({ events: [...events, { id: 2, source: 'user', timestamp: at, action: 'message' }] })).toBe(first);
    expect(select({ events: [...events, output(2)] })).not.toBe(first);
  });
});
