import { describe, expect, it } from 'vitest';
import { createBrowserPageSelector, latestBrowserPage } from './browser-page.ts';
import type { Event } from '../../../../openapi/types.ts';

const at = '2026-01-01T00:00:00Z';
const browse = (id: number, url: string): Event => ({
  id,
  source: 'agent',
  timestamp: at,
  observation: 'browse',
  extras: { url, screenshot: `data:image/png;base64,${id}` },
});

describe('browser page', () => {
  it('is the latest browse observation, or none', () => {
    expect(latestBrowserPage([])).toBeNull();
    expect(
      latestBrowserPage([
        browse(1, 'https://a.test'),
        { id: 2, source: 'agent', timestamp: at, action: 'run' },
        browse(3, 'https://b.test'),
      ]),
    ).toEqual({
      url: 'https://b.test',
      screenshot: 'data:image/png;base64,3',
    });
  });
  it('keeps the same object while no new page arrives', () => {
    const select = createBrowserPageSelector();
    const first = select({ events: [browse(1, 'https://a.test')] });
    expect(
      select({ events: [browse(1, 'https://a.test'), { id: 2, source: 'user', timestamp: at, action: 'message' }] }),
    ).toBe(first);
  });
});
