import type { Event } from '../../openapi/types.ts';

/**
 * Tells every node that a conversation has a new event, or that its owner must act.
 * Messages between nodes carry ids only: subscribers read events from the database, so an
 * event of any size travels the same way and a missed notification is repaired by the next
 * read. Listeners on the node that committed the event also get the event itself, which
 * spares them that read when they already have everything before it.
 */
export interface EventBus {
  /** The conversation's event is committed. */
  publish(conversationId: string, event: Event): Promise<void>;
  /** Calls `listener` with the ids of new events, and the event when it was committed on this node; returns the unsubscribe function. */
  subscribe(conversationId: string, listener: (eventId: number, event?: Event) => void): () => void;
  /**
   * A small command for the node that runs the conversation (`action <eventId>`, `stop`):
   * a socket on any node can reach the runtime and agent that live on one node.
   */
  signal(conversationId: string, message: string): Promise<void>;
  onSignal(listener: (conversationId: string, message: string) => void): () => void;
  /**
   * A small notice for every node about something other than a conversation (`user <id>`: an
   * account or its sessions changed, so cached sign-ins of that user must be read again).
   */
  announce(topic: string, message: string): Promise<void>;
  onAnnouncement(topic: string, listener: (message: string) => void): () => void;
  /** Called after a lost connection is back: listeners re-read what they may have missed. */
  onReconnect(listener: () => void): () => void;
  close(): Promise<void>;
}

/** Listener bookkeeping shared by the implementations. */
export class Listeners<A extends unknown[]> {
  private readonly sets = new Map<string, Set<(...args: A) => void>>();

  add(key: string, listener: (...args: A) => void): () => void {
    const set = this.sets.get(key) ?? new Set();
    set.add(listener);
    this.sets.set(key, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.sets.get(key) === set) this.sets.delete(key);
    };
  }

  emit(key: string, ...args: A) {
    for (const listener of [...(this.sets.get(key) ?? [])]) listener(...args);
  }
}
