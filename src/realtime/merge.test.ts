import { describe, expect, it } from 'vitest';
import { grewAtEnd, mergeEvents, newestEventId, oldestEventId } from './merge.ts';
import type { Event } from '../../openapi/types.ts';

const event = (id: number): Event => ({
  id,
  source: 'agent',
  timestamp: '2026-01-01T00:00:00Z',
  message: `event ${id}`,
});
const ids = (events: readonly Event[]) => events.map((entry) => entry.id);

describe('mergeEvents', () => {
  it('appends newer events in order', () => {
    expect(ids(mergeEvents([event(1), event(2)], [event(3), event(4)]))).toEqual([1, 2, 3, 4]);
  });

  it('puts an older page (given newest first) before the known events', () => {
    expect(ids(mergeEvents([event(5), event(6)], [event(4), event(3), event(2)]))).toEqual([2, 3, 4, 5, 6]);
  });

  it('keeps each id once when a replay overlaps what is known', () => {
    expect(ids(mergeEvents([event(1), event(2), event(3)], [event(2), event(3), event(4), event(4)]))).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it('fills in around the known events when a page overlaps them', () => {
    expect(ids(mergeEvents([event(3), event(5)], [event(6), event(5), event(4), event(2)]))).toEqual([2, 3, 4, 5, 6]);
    expect(ids(mergeEvents([event(1), event(2)], [event(0), event(3)]))).toEqual([0, 1, 2, 3]);
  });

  it('returns the same array when nothing is new, so views do not re-render', () => {
    const known = [event(1)];
    expect(mergeEvents(known, [event(1)])).toBe(known);
  });

  it('tells a history that only grew at its end from one that got an older page, was filled in, or is another', () => {
    const known = [event(2), event(3)];
    expect(grewAtEnd(known, mergeEvents(known, [event(4), event(5)]))).toBe(true);
    expect(grewAtEnd(known, known)).toBe(true);
    expect(grewAtEnd(known, mergeEvents(known, [event(1)]))).toBe(false);
    expect(grewAtEnd([event(2), event(4)], mergeEvents([event(2), event(4)], [event(3), event(5)]))).toBe(false);
    expect(grewAtEnd(known, [event(2), event(3)])).toBe(false);
    expect(grewAtEnd([], known)).toBe(false);
  });

  it('names the ids to resume after and to page from', () => {
    expect(newestEventId([])).toBe(-1);
    expect(oldestEventId([])).toBeUndefined();
    expect(newestEventId([event(3), event(9)])).toBe(9);
    expect(oldestEventId([event(3), event(9)])).toBe(3);
  });
});
