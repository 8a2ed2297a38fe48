import { describe, expect, it } from 'vitest';
import type { EventBus } from './event-bus.ts';
import { InProcessEventBus } from './local-bus.ts';
import { EventStreams, type Event, type EventReader } from './streams.ts';

/** A conversation's stored events, counting the reads the streams make. */
class StoredEvents implements EventReader {
  readonly events: Event[] = [];
  reads = 0;

  commit(): Event {
    const event: Event = {
      id: this.events.length,
      source: 'agent',
      timestamp: new Date().toISOString(),
      message: `event ${this.events.length}`,
    };
    this.events.push(event);
    return event;
  }

  async after(_conversationId: string, afterId: number, limit: number): Promise<Event[]> {
    this.reads += 1;
    return this.events.filter((e) => e.id > afterId).slice(0, limit);
  }

  async latestId(): Promise<number> {
    return this.events.at(-1)?.id ?? -1;
  }
}

/** Notifications as they come from another node: ids only. */
class OtherNodeBus implements EventBus {
  private listener: ((eventId: number) => void) | null = null;
  notify(eventId: number) {
    this.listener?.(eventId);
  }
  async publish() {}
  subscribe(_conversationId: string, listener: (eventId: number) => void) {
    this.listener = listener;
    return () => (this.listener = null);
  }
  async signal() {}
  onSignal() {
    return () => undefined;
  }
  async announce() {}
  onAnnouncement() {
    return () => undefined;
  }
  onReconnect() {
    return () => undefined;
  }
  async close() {}
}

const silent = { error: () => undefined };
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('EventStreams', () => {
  it('hands an event committed on this node to every listener as it is, without reading it back', async () => {
    const stored = new StoredEvents();
    stored.commit();
    const bus = new InProcessEventBus();
    const streams = new EventStreams(bus, stored, silent);
    const first: Event[] = [];
    const second: Event[] = [];
    await streams.subscribe('c', (e) => first.push(e));
    await streams.subscribe('c', (e) => second.push(e));
    const readsBefore = stored.reads;

    const committed = stored.commit();
    await bus.publish('c', committed);
    expect(first).toEqual([committed]);
    expect(first[0]).toBe(committed);
    expect(second[0]).toBe(committed);
    expect(stored.reads).toBe(readsBefore);
  });

  it('reads from the store when an event arrives after a gap, so listeners still get every event in order', async () => {
    const stored = new StoredEvents();
    const bus = new InProcessEventBus();
    const streams = new EventStreams(bus, stored, silent);
    const got: number[] = [];
    await streams.subscribe('c', (e) => got.push(e.id));

    const missed = stored.commit(); // committed where no notification reached this node
    const next = stored.commit();
    await bus.publish('c', next);
    await settled();
    expect(got).toEqual([missed.id, next.id]);
  });

  it('reads what a notification without the event announces (another node committed it)', async () => {
    const stored = new StoredEvents();
    const bus = new OtherNodeBus();
    const streams = new EventStreams(bus, stored, silent);
    const got: number[] = [];
    await streams.subscribe('c', (e) => got.push(e.id));
    stored.commit();
    bus.notify(stored.commit().id);
    await settled();
    expect(got).toEqual([0, 1]);
  });
});
