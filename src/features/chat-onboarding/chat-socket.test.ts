import { describe, expect, it } from 'vitest';
import { keepChat, keptChat, ONBOARDING_CHAT_KEY } from './chat-token.ts';
import { reportsOf, UPGRADED_STATUS } from './chat-socket.ts';
import type { Event } from '../../../openapi/types.ts';

const event = (fields: Partial<Event>): Event =>
  ({ id: 3, timestamp: '2026-11-26T10:00:00.000Z', source: 'agent', ...fields }) as Event;

describe('what a chat event tells the page', () => {
  it('names agent messages, the answers to a rewind and the upgrade; every event counts as an arrival', () => {
    expect(reportsOf(event({ action: 'message', message: 'Hi!' }))).toEqual([
      { type: 'EVENT_ARRIVED' },
      { type: 'AGENT_MESSAGE' },
    ]);
    expect(reportsOf(event({ source: 'user', action: 'message', message: 'A shop' }))).toEqual([
      { type: 'EVENT_ARRIVED' },
    ]);
    expect(reportsOf(event({ source: 'environment', status_update: true, status_id: 'rewind_success' }))).toEqual([
      { type: 'EVENT_ARRIVED' },
      { type: 'REWOUND' },
    ]);
    expect(reportsOf(event({ source: 'environment', status_update: true, status_id: 'rewind_error' }))).toEqual([
      { type: 'EVENT_ARRIVED' },
      { type: 'REWIND_FAILED' },
    ]);
    expect(
      reportsOf(event({ source: 'environment', status_update: true, status_id: UPGRADED_STATUS, message: 'c0ffee' })),
    ).toEqual([{ type: 'EVENT_ARRIVED' }, { type: 'UPGRADED', conversationId: 'c0ffee' }]);
  });
});

describe('the chat this tab keeps', () => {
  it('reopens the chat the url names with the kept token, and no other', () => {
    const storage = new Map<string, string>();
    const fake = {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
    } as unknown as Storage;
    expect(keptChat(null, fake)).toBeNull();
    keepChat({ id: 'chat-1', token: 'secret' }, fake);
    expect(keptChat('chat-1', fake)).toEqual({ id: 'chat-1', token: 'secret' });
    expect(keptChat(null, fake)).toEqual({ id: 'chat-1', token: 'secret' });
    expect(keptChat('chat-2', fake)).toBeNull();
    storage.set(ONBOARDING_CHAT_KEY, 'not json');
    expect(keptChat('chat-1', fake)).toBeNull();
  });
});
