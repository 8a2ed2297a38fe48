import { describe, expect, it } from 'vitest';
import type { Conversation, Event } from '../../realtime/types.ts';
import { shownTitle, streamedTitle } from './title.ts';

const conversation = (title: string, updated: string): Conversation => ({
  conversation_id: 'c1',
  title,
  status: 'RUNNING',
  runtime_status: null,
  url: null,
  session_api_key: null,
  selected_repository: null,
  selected_branch: null,
  git_provider: null,
  trigger: null,
  created_at: '2026-01-01T00:00:00Z',
  last_updated_at: updated,
});
const titled = (id: number, title: string, at: string): Event => ({ id, source: 'environment', timestamp: at, status_update: true, conversation_title: title });

describe('the workspace title', () => {
  it('takes the title the agent gave after the record was read', () => {
    const events = [titled(1, 'First', '2026-01-01T00:01:00Z'), { id: 2, source: 'agent', timestamp: '2026-01-01T00:02:00Z' } as Event, titled(3, 'Notes file', '2026-01-01T00:03:00Z')];
    expect(streamedTitle(events)?.id).toBe(3);
    expect(shownTitle(conversation('Conversation c1', '2026-01-01T00:00:30Z'), events)).toBe('Notes file');
  });

  it('keeps a rename made after the agent named it, and the record title without any', () => {
    expect(shownTitle(conversation('Mine', '2026-01-01T00:05:00Z'), [titled(3, 'Notes file', '2026-01-01T00:03:00Z')])).toBe('Mine');
    expect(shownTitle(conversation('Mine', '2026-01-01T00:05:00Z'), [])).toBe('Mine');
  });
});
