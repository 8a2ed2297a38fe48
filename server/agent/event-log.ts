import type { LlmMetrics } from './metrics.ts';
import type { AgentHost, NewEvent } from './types.ts';
import type { Event } from '../../openapi/types.ts';

/**
 * The conversation's events as the agent knows them, and the one way it emits new ones.
 * Emits go to the host strictly one after another in the order they were asked for, so a
 * state change announced by the controller can never overtake the action before it; each
 * agent event carries the metrics as they were when it was emitted.
 */
export class EventLog {
  readonly events: Event[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly host: Pick<AgentHost, 'emit' | 'history'>,
    private readonly metrics: () => LlmMetrics,
  ) {}

  /** Reads the history, in turn with the emits: an event emitted meanwhile is neither lost nor doubled. */
  load(): Promise<void> {
    const loaded = this.queue.then(async () => {
      this.events.splice(0, this.events.length, ...(await this.host.history()));
    });
    this.queue = loaded.catch(() => undefined);
    return loaded;
  }

  emit(event: NewEvent): Promise<Event> {
    const metered: NewEvent = event.source === 'agent' ? { ...event, llm_metrics: this.metrics() } : event;
    const emitted = this.queue.then(async () => {
      const stored = await this.host.emit(metered);
      this.events.push(stored);
      return stored;
    });
    // One failed emit must not block the ones after it; its caller sees the failure.
    this.queue = emitted.catch(() => undefined);
    return emitted;
  }

  /** Resolves when every emit asked for so far has settled. */
  async drain(): Promise<void> {
    await this.queue;
  }

  get lastId(): number {
    return this.events.at(-1)?.id ?? -1;
  }
}
