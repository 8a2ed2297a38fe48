import type { Client, Notification } from 'pg';
import { Listeners, type EventBus } from './event-bus.ts';
import type { Logger } from '../shared/logger.ts';
import type { Event } from '../../openapi/types.ts';

const EVENTS = 'atelier_events';
const SIGNALS = 'atelier_signals';
const NOTICES = 'atelier_notices';
/** Sent after a node's connection comes back: every node re-reads its streams (notifications may have been lost). */
const RESYNC = '*';

/**
 * Several nodes on one PostgreSQL database (ARCHITECTURE.md §8): notifications go through
 * LISTEN/NOTIFY on one dedicated connection, which also sends them so its own echoes can be
 * recognised by backend pid and skipped (local listeners are called directly, at once).
 */
export class PostgresEventBus implements EventBus {
  private readonly events = new Listeners<[number, Event?]>();
  private readonly signals = new Listeners<[string, string]>();
  private readonly notices = new Listeners<[string]>();
  private readonly reconnects = new Listeners<[]>();
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  /** Connects and listens; resolves once notifications flow. */
  async start() {
    await this.connection();
  }

  async publish(conversationId: string, event: Event) {
    this.events.emit(conversationId, event.id, event);
    await this.notify(EVENTS, `${conversationId} ${event.id}`);
  }

  subscribe(conversationId: string, listener: (eventId: number, event?: Event) => void) {
    return this.events.add(conversationId, listener);
  }

  async signal(conversationId: string, message: string) {
    this.signals.emit('', conversationId, message);
    await this.notify(SIGNALS, `${conversationId} ${message}`);
  }

  onSignal(listener: (conversationId: string, message: string) => void) {
    return this.signals.add('', listener);
  }

  async announce(topic: string, message: string) {
    this.notices.emit(topic, message);
    await this.notify(NOTICES, `${topic} ${message}`);
  }

  onAnnouncement(topic: string, listener: (message: string) => void) {
    return this.notices.add(topic, listener);
  }

  onReconnect(listener: () => void) {
    return this.reconnects.add('', listener);
  }

  async close() {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async notify(channel: string, payload: string) {
    try {
      const client = await this.connection();
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    } catch (error) {
      // Other nodes catch up on the resync sent when the connection is back.
      if (!this.closed) this.log.warn({ err: error, channel }, 'notification not sent');
    }
  }

  private connection(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async connect(): Promise<Client> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => this.receive(client, message));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    await client.connect();
    await client.query(`listen ${EVENTS}`);
    await client.query(`listen ${SIGNALS}`);
    await client.query(`listen ${NOTICES}`);
    if (this.closed) {
      await client.end();
      throw new Error('event bus closed');
    }
    this.client = client;
    return client;
  }

  private receive(client: Client, message: Notification) {
    const own = message.processId === (client as unknown as { processID: number }).processID;
    const payload = message.payload ?? '';
    if (message.channel === EVENTS && payload === RESYNC) {
      if (!own) this.reconnects.emit('');
      return;
    }
    if (own) return;
    const space = payload.indexOf(' ');
    if (space < 0) return;
    // A conversation's id, or a notice's topic.
    const key = payload.slice(0, space);
    const rest = payload.slice(space + 1);
    if (message.channel === EVENTS) this.events.emit(key, Number(rest));
    else if (message.channel === NOTICES) this.notices.emit(key, rest);
    else this.signals.emit('', key, rest);
  }

  private lost(client: Client, error: Error) {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.log.warn({ err: error }, 'event bus connection lost; reconnecting');
    void this.reconnect(1);
  }

  private async reconnect(attempt: number): Promise<void> {
    if (this.closed) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 200 * attempt)));
    try {
      const client = await this.connection();
      await client.query('select pg_notify($1, $2)', [EVENTS, RESYNC]);
      this.reconnects.emit('');
    } catch {
      return this.reconnect(attempt + 1);
    }
  }
}
