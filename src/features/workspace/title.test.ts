import { describe, expect, it } from 'vitest';
import { mergeEvents } from '../../realtime/merge.ts';
import { liveConversation, streamedRuntimeStatus, streamedTitle } from './title.ts';
import { conversationRecord } from '../../../tests/support/records.ts';
import type { Conversation, Event } from '../../../openapi/types.ts';

const record = (title: string, updated: string): Conversation =>
  conversationRecord({
    title,
    status: 'STARTING',
    runtime_status: 'STATUS$STARTING_RUNTIME',
    last_updated_at: updated,
  });
const status = (id: number, statusId: string, at: string, extra: Partial<Event> = {}): Event => ({
  id,
  source: 'environment',
  timestamp: at,
  status_update: true,
  status_id: statusId,
  ...extra,
});

describe('the live conversation', () => {
  const events = [
    status(1, 'STATUS$READY', '2026-01-01T00:01:00Z'),
    { id: 2, source: 'agent', timestamp: '2026-01-01T00:02:00Z' } as Event,
    status(3, 'STATUS$CONVERSATION_TITLE_UPDATED', '2026-01-01T00:03:00Z', { conversation_title: 'Notes file' }),
  ];

  it('finds the newest title and runtime status (a title update is not a runtime status)', () => {
    expect(streamedTitle(events)?.id).toBe(3);
    expect(streamedRuntimeStatus(events)?.id).toBe(1);
    expect(streamedTitle([])).toBeNull();
  });

  it('takes what the stream said after the record was read', () => {
    const live = liveConversation(
      record('Conversation c1', '2026-01-01T00:00:30Z'),
      streamedTitle(events),
      streamedRuntimeStatus(events),
    );
    expect(live.title).toBe('Notes file');
    expect(live.runtime_status).toBe('STATUS$READY');
    expect(live.status).toBe('RUNNING');
  });

  it('keeps a newer record (a rename after the agent named it) as it is', () => {
    const renamed = record('Mine', '2026-01-01T00:05:00Z');
    expect(liveConversation(renamed, streamedTitle(events), streamedRuntimeStatus(events))).toBe(renamed);
    expect(liveConversation(renamed, null, null)).toBe(renamed);
  });

  it('answers as a search of the whole history while it grows at its end, gets older pages, or is another one', () => {
    const at = '2026-01-01T00:00:00Z';
    const titled = (id: number) =>
      status(id, 'STATUS$CONVERSATION_TITLE_UPDATED', at, { conversation_title: `T${id}` });
    const plain = (id: number) => ({ id, source: 'agent', timestamp: at }) as Event;
    const wholeSearch = (list: readonly Event[]) => list.findLast((event) => Boolean(event.conversation_title)) ?? null;
    // The newest page, then events one by one (a title among them), an older page with an older title, an unrelated history.
    let history = mergeEvents([], [plain(50), titled(51), plain(52)]);
    const seen: (Event | null)[] = [];
    const check = () => {
      seen.push(streamedTitle(history));
      expect(streamedTitle(history)).toBe(wholeSearch(history));
    };
    check();
    for (const event of [plain(53), plain(54), titled(55), plain(56)]) {
      history = mergeEvents(history, [event]);
      check();
    }
    history = mergeEvents(history, [plain(49), titled(48), plain(47)]);
    check();
    history = mergeEvents([], [plain(1), titled(2)]);
    check();
    history = mergeEvents([], [plain(1)]);
    check();
    expect(seen.map((event) => event?.id ?? null)).toEqual([51, 51, 51, 55, 55, 55, 2, null]);
  });
});
