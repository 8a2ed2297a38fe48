import type { EventBus } from './event-bus.ts';
import type { Logger } from '../shared/logger.ts';
import type { Event } from '../../openapi/types.ts';

export type { Event };

/** Reads a conversation's persisted events; the database is the only source of events. */
export interface EventReader {
  /** Events with `id > afterId`, oldest first, at most `limit`. */
  after(conversationId: string, afterId: number, limit: number): Promise<Event[]>;
  /** The newest event id, -1 when there is none. */
  latestId(conversationId: string): Promise<number>;
}

const PAGE = 500;

/**
 * One reader per conversation per node: a bus notification makes it read what is new, once
 * for all local listeners, and hand every event to each of them in id order exactly once.
 */
class ConversationStream {
  private lastId: number | null = null;
  private readonly listeners = new Set<(event: Event) => void>();
  private busy = false;
  private dirty = false;
  private settle!: { resolve: () => void; reject: (error: unknown) => void };
  /** Resolves once the starting point is known: listeners get every event committed after it. */
  readonly ready = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
  readonly unsubscribe: () => void;

  constructor(
    private readonly conversationId: string,
    bus: EventBus,
    private readonly reader: EventReader,
    private readonly log: Pick<Logger, 'error'>,
  ) {
    // Subscribe before reading the starting point: an event committed in between is then
    // either at or below the starting point, or announced after it; never lost.
    this.unsubscribe = bus.subscribe(conversationId, (_id, event) => (event ? this.offer(event) : this.pump()));
    this.ready.catch(() => {});
    this.pump();
  }

  get size() {
    return this.listeners.size;
  }

  add(listener: (event: Event) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** An event committed on this node: handed out as it is when it is the next one, else read like any other. */
  private offer(event: Event) {
    if (this.busy || this.lastId === null || event.id !== this.lastId + 1) return this.pump();
    this.lastId = event.id;
    this.deliver(event);
  }

  private deliver(event: Event) {
    for (const listener of [...this.listeners]) listener(event);
  }

  /** Reads what is new; calls during a read coalesce into one more pass. */
  pump() {
    this.dirty = true;
    if (this.busy) return;
    this.busy = true;
    void this.loop();
  }

  private async loop() {
    while (this.dirty) {
      this.dirty = false;
      try {
        await this.step();
      } catch (error) {
        if (this.lastId === null) this.settle.reject(error);
        this.log.error({ err: error, conversationId: this.conversationId }, 'reading new events failed');
      }
    }
    this.busy = false;
  }

  private async step() {
    if (this.lastId === null) {
      this.lastId = await this.reader.latestId(this.conversationId);
      this.settle.resolve();
      return;
    }
    for (;;) {
      const batch = await this.reader.after(this.conversationId, this.lastId, PAGE);
      for (const event of batch) {
        this.lastId = event.id;
        this.deliver(event);
      }
      if (batch.length < PAGE) return;
    }
  }
}

/** The live event streams of this node, shared by every socket on a conversation. */
export class EventStreams {
  private readonly streams = new Map<string, ConversationStream>();

  constructor(
    private readonly bus: EventBus,
    private readonly reader: EventReader,
    private readonly log: Pick<Logger, 'error'>,
  ) {
    bus.onReconnect(() => this.streams.forEach((s) => s.pump()));
  }

  /**
   * Calls `listener` with every event committed after this resolves (and possibly a few
   * before: listeners de-duplicate by id). Returns the unsubscribe function.
   */
  async subscribe(conversationId: string, listener: (event: Event) => void): Promise<() => void> {
    let stream = this.streams.get(conversationId);
    if (!stream) {
      stream = new ConversationStream(conversationId, this.bus, this.reader, this.log);
      this.streams.set(conversationId, stream);
    }
    const current = stream;
    const remove = current.add(listener);
    const unsubscribe = () => {
      remove();
      if (current.size === 0 && this.streams.get(conversationId) === current) {
        current.unsubscribe();
        this.streams.delete(conversationId);
      }
    };
    try {
      await current.ready;
    } catch (error) {
      unsubscribe();
      throw error;
    }
    return unsubscribe;
  }
}
