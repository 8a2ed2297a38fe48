/**
 * Tells every node that a conversation has a new event, or that its owner must act.
 * Messages carry ids only: subscribers read events from the database, so an event of any
 * size travels the same way and a missed notification is repaired by the next read.
 */
export interface EventBus {
  /** The event `eventId` of the conversation is committed. */
  publish(conversationId: string, eventId: number): Promise<void>;
  /** Calls `listener` with the ids of new events; returns the unsubscribe function. */
  subscribe(conversationId: string, listener: (eventId: number) => void): () => void;
  /**
   * A small command for the node that runs the conversation (`action <eventId>`, `stop`):
   * a socket on any node can reach the runtime and agent that live on one node.
   */
  signal(conversationId: string, message: string): Promise<void>;
  onSignal(listener: (conversationId: string, message: string) => void): () => void;
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
