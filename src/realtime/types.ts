/**
 * What the workspace's views (chat, tabs, modals) get from an open conversation: its
 * events in id order (history pages loaded newest-first over REST, newer ones streamed over
 * the socket, never a gap or a duplicate) and a way to send actions. Views read it through
 * `useSyncExternalStore(stream.subscribe, stream.getSnapshot)` and selectors, so appending
 * one event re-renders only what selects it.
 */
import type { ConnectionStatus } from '../../machines/connection.ts';
import type { ClientAction, Event } from '../../openapi/types.ts';

export type { ConnectionStatus };

/** Events per REST history page. */
export const HISTORY_PAGE_SIZE = 50;

export interface StreamSnapshot {
  /** Every event known so far, ascending id. The array is replaced (never mutated) on change. */
  events: readonly Event[];
  /** Older history exists on the server that is not loaded yet. */
  hasOlder: boolean;
  loadingOlder: boolean;
  connection: ConnectionStatus;
  /** The connection machine's message for the status bar, if any (already translated). */
  connectionMessage: string | null;
}

export interface ConversationStream {
  readonly conversationId: string;
  subscribe(listener: () => void): () => void;
  getSnapshot(): StreamSnapshot;
  /** Sends an `oh_user_action` frame (queued while disconnected). */
  send(action: ClientAction): void;
  /** Loads the next page of older events (REST, newest first); resolves false when none are left. */
  loadOlder(): Promise<boolean>;
  /** Closes and opens the socket again, resuming after the last event id. */
  reconnect(): void;
}
