import type { Conversation, Event } from '../../realtime/types.ts';

/** The newest title the agent gave the conversation over the stream, if any. */
export function streamedTitle(events: readonly Event[]): Event | null {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.conversation_title) return event;
  }
  return null;
}

/**
 * The title to show: the record's, unless the agent named the conversation after the record was
 * last updated (a rename by the user updates the record, so it wins over an older title event).
 */
export function shownTitle(conversation: Conversation, events: readonly Event[]): string {
  const named = streamedTitle(events);
  if (!named?.conversation_title) return conversation.title;
  return Date.parse(named.timestamp) >= Date.parse(conversation.last_updated_at) ? named.conversation_title : conversation.title;
}
