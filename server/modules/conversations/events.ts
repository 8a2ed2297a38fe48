import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { components } from '../../../openapi/schema.d.ts';
import type { Db } from '../../db/index.ts';
import { conversations, events } from '../../db/schema.ts';

export type Event = components['schemas']['Event'];
/** An event before the store gives it its id and timestamp. */
export type NewEvent = Omit<Event, 'id' | 'timestamp'>;

/**
 * The append-only event log. `append` takes the next number from the conversation's row in
 * the same transaction as the insert: the row lock orders concurrent appends, so ids are
 * strictly increasing without gaps and commit in id order.
 */
export function createEventStore(db: Db) {
  return {
    async append(conversationId: string, batch: NewEvent[]): Promise<Event[]> {
      if (batch.length === 0) return [];
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(conversations)
          .set({ nextEventId: sql`${conversations.nextEventId} + ${batch.length}`, lastUpdatedAt: new Date() })
          .where(eq(conversations.id, conversationId))
          .returning({ next: conversations.nextEventId });
        if (!row) throw new Error(`Conversation ${conversationId} does not exist`);
        const first = row.next - batch.length;
        const timestamp = new Date();
        const stored = batch.map((event, i) => ({ ...event, id: first + i, timestamp: timestamp.toISOString() }) as Event);
        await tx.insert(events).values(stored.map((data) => ({ conversationId, id: data.id, data, createdAt: timestamp })));
        return stored;
      });
    },

    async after(conversationId: string, afterId: number, limit: number): Promise<Event[]> {
      const rows = await db
        .select({ data: events.data })
        .from(events)
        .where(and(eq(events.conversationId, conversationId), gt(events.id, afterId)))
        .orderBy(asc(events.id))
        .limit(limit);
      return rows.map((r) => r.data as Event);
    },

    /** Newest first: events with `id < beforeId` (all when null), one more than asked to tell whether older ones exist. */
    async page(conversationId: string, beforeId: number | null, limit: number) {
      const rows = await db
        .select({ data: events.data })
        .from(events)
        .where(and(eq(events.conversationId, conversationId), beforeId === null ? undefined : lt(events.id, beforeId)))
        .orderBy(desc(events.id))
        .limit(limit + 1);
      return { events: rows.slice(0, limit).map((r) => r.data as Event), has_more: rows.length > limit };
    },

    /** The whole history, oldest first (the agent's context, the trajectory download). */
    async all(conversationId: string): Promise<Event[]> {
      const rows = await db.select({ data: events.data }).from(events).where(eq(events.conversationId, conversationId)).orderBy(asc(events.id));
      return rows.map((r) => r.data as Event);
    },

    async get(conversationId: string, id: number): Promise<Event | null> {
      const [row] = await db
        .select({ data: events.data })
        .from(events)
        .where(and(eq(events.conversationId, conversationId), eq(events.id, id)));
      return (row?.data as Event | undefined) ?? null;
    },

    async latestId(conversationId: string): Promise<number> {
      const [row] = await db.select({ next: conversations.nextEventId }).from(conversations).where(eq(conversations.id, conversationId));
      return (row?.next ?? 0) - 1;
    },
  };
}

export type EventStore = ReturnType<typeof createEventStore>;
