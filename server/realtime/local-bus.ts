import { Listeners, type EventBus } from './event-bus.ts';

/** One process: notifications are function calls (the PGlite default). */
export class InProcessEventBus implements EventBus {
  private readonly events = new Listeners<[number]>();
  private readonly signals = new Listeners<[string, string]>();

  async publish(conversationId: string, eventId: number) {
    this.events.emit(conversationId, eventId);
  }

  subscribe(conversationId: string, listener: (eventId: number) => void) {
    return this.events.add(conversationId, listener);
  }

  async signal(conversationId: string, message: string) {
    this.signals.emit('', conversationId, message);
  }

  onSignal(listener: (conversationId: string, message: string) => void) {
    return this.signals.add('', listener);
  }

  onReconnect() {
    return () => {};
  }

  async close() {}
}
