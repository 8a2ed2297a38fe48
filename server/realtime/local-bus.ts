import { Listeners, type EventBus } from './event-bus.ts';
import type { Event } from '../../openapi/types.ts';

/** One process: notifications are function calls (the PGlite default). */
export class InProcessEventBus implements EventBus {
  private readonly events = new Listeners<[number, Event?]>();
  private readonly signals = new Listeners<[string, string]>();
  private readonly notices = new Listeners<[string]>();

  async publish(conversationId: string, event: Event) {
    this.events.emit(conversationId, event.id, event);
  }

  subscribe(conversationId: string, listener: (eventId: number, event?: Event) => void) {
    return this.events.add(conversationId, listener);
  }

  async signal(conversationId: string, message: string) {
    this.signals.emit('', conversationId, message);
  }

  onSignal(listener: (conversationId: string, message: string) => void) {
    return this.signals.add('', listener);
  }

  async announce(topic: string, message: string) {
    this.notices.emit(topic, message);
  }

  onAnnouncement(topic: string, listener: (message: string) => void) {
    return this.notices.add(topic, listener);
  }

  onReconnect() {
    return () => {};
  }

  async close() {}
}
