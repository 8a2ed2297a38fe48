import type { PendingMessage } from '../../../machines/chat-input.ts';
import { UNSENT_MESSAGES_PREFIX } from '../../app/local-data.ts';

// A message stays in the browser until the server has echoed it, so a reload (or a server
// restart that lost it) never loses what the user wrote: it comes back into the message box.

const keyOf = (conversationId: string) => `${UNSENT_MESSAGES_PREFIX}${conversationId}`;

const isPending = (value: unknown): value is PendingMessage =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as PendingMessage).id === 'string' &&
  typeof (value as PendingMessage).content === 'string' &&
  typeof (value as PendingMessage).timestamp === 'string';

/** Keeps the messages not echoed yet (none: the entry goes). */
export function keepUnsent(
  conversationId: string,
  pending: readonly PendingMessage[],
  storage: Storage = localStorage,
) {
  if (pending.length === 0) storage.removeItem(keyOf(conversationId));
  else storage.setItem(keyOf(conversationId), JSON.stringify(pending));
}

/** The messages an earlier visit kept (the chat puts back those the history never echoed). */
export function readUnsent(conversationId: string, storage: Storage = localStorage): PendingMessage[] {
  let stored: unknown;
  try {
    stored = JSON.parse(storage.getItem(keyOf(conversationId)) ?? '[]');
  } catch {
    stored = [];
  }
  return Array.isArray(stored) ? stored.filter(isPending) : [];
}
