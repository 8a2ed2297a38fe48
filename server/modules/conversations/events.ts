import { and, asc, desc, eq, gt, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { conversations, events } from '../../db/schema.ts';
import type { WorkspaceSnapshot } from '../../runtime/types.ts';
import type { Event } from '../../../openapi/types.ts';
import { eventAppends } from '../../shared/metrics.ts';

/** An event before the store gives it its id and timestamp. */
export type NewEvent = Omit<Event, 'id' | 'timestamp'>;

/**
 * The append-only event log. `append` is one statement: it takes the next numbers from the
 * conversation's row and inserts the events (a data-modifying WITH runs to completion). The
 * row lock orders concurrent appends, so ids are strictly increasing without gaps and commit
 * in id order; one statement instead of a transaction of four saves three round trips per event.
 */
export function createEventStore(db: Db) {
  return {
    async append(conversationId: string, batch: NewEvent[]): Promise<Event[]> {
      if (batch.length === 0) return [];
      eventAppends.inc(batch.length);
      const now = new Date();
      const timestamp = now.toISOString();
      const result = await db.execute(sql`
        with next as (
          update ${conversations} set ${sql.identifier(conversations.nextEventId.name)} = ${conversations.nextEventId} + ${batch.length},
            ${sql.identifier(conversations.lastUpdatedAt.name)} = ${now}
          where ${conversations.id} = ${conversationId}
          returning ${conversations.nextEventId} - ${batch.length} as first
        ), stored as (
          insert into ${events} (${sql.identifier(events.conversationId.name)}, ${sql.identifier(events.id.name)}, ${sql.identifier(events.data.name)}, ${sql.identifier(events.createdAt.name)})
          select ${conversationId}, next.first + item.position - 1, item.event || jsonb_build_object('id', next.first + item.position - 1), ${now}
          from next, jsonb_array_elements(${JSON.stringify(batch.map((event) => ({ ...event, timestamp })))}::jsonb) with ordinality as item(event, position)
        )
        select first from next`);
      const first = (result as unknown as { rows: { first: number | string }[] }).rows[0]?.first;
      if (first === undefined) throw new Error(`Conversation ${conversationId} does not exist`);
      return batch.map((event, i) => ({ ...event, id: Number(first) + i, timestamp }) as Event);
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
      const rows = await db
        .select({ data: events.data })
        .from(events)
        .where(eq(events.conversationId, conversationId))
        .orderBy(asc(events.id));
      return rows.map((r) => r.data as Event);
    },

    async get(conversationId: string, id: number): Promise<Event | null> {
      const [row] = await db
        .select({ data: events.data })
        .from(events)
        .where(and(eq(events.conversationId, conversationId), eq(events.id, id)));
      return (row?.data as Event | undefined) ?? null;
    },

    /**
     * Copies events 0…`lastId` of `sourceId` into `targetId`, a new conversation without events,
     * with their ids, data and times, and numbers the target's next event after them: one statement.
     */
    async copyPrefix(sourceId: string, targetId: string, lastId: number): Promise<void> {
      await db.execute(sql`
        with copied as (
          insert into ${events} (${sql.identifier(events.conversationId.name)}, ${sql.identifier(events.id.name)}, ${sql.identifier(events.data.name)}, ${sql.identifier(events.createdAt.name)})
          select ${targetId}, ${events.id}, ${events.data}, ${events.createdAt} from ${events}
          where ${events.conversationId} = ${sourceId} and ${events.id} <= ${lastId}
          returning ${sql.identifier(events.id.name)} as id
        )
        update ${conversations} set ${sql.identifier(conversations.nextEventId.name)} = (select coalesce(max(id) + 1, 0) from copied)
        where ${conversations.id} = ${targetId}`);
    },

    /** The workspace snapshot of the last file-changing step at or before event `atOrBefore`, null when none. */
    async snapshotAt(conversationId: string, atOrBefore: number): Promise<WorkspaceSnapshot | null> {
      const [row] = await db
        .select({ snapshot: sql<WorkspaceSnapshot>`${events.data} -> 'extras' -> 'workspace_snapshot'` })
        .from(events)
        .where(
          and(
            eq(events.conversationId, conversationId),
            lte(events.id, atOrBefore),
            sql`${events.data} -> 'extras' ? 'workspace_snapshot'`,
          ),
        )
        .orderBy(desc(events.id))
        .limit(1);
      return row?.snapshot ?? null;
    },

    /** The text of the user's last message at or before event `atOrBefore`, null when none. */
    async lastUserMessage(conversationId: string, atOrBefore: number): Promise<string | null> {
      const [row] = await db
        .select({ content: sql<string | null>`${events.data} -> 'args' ->> 'content'` })
        .from(events)
        .where(
          and(
            eq(events.conversationId, conversationId),
            lte(events.id, atOrBefore),
            sql`${events.data} ->> 'source' = 'user'`,
            sql`${events.data} ->> 'action' = 'message'`,
          ),
        )
        .orderBy(desc(events.id))
        .limit(1);
      return row?.content ?? null;
    },

    async latestId(conversationId: string): Promise<number> {
      const [row] = await db
        .select({ next: conversations.nextEventId })
        .from(conversations)
        .where(eq(conversations.id, conversationId));
      return (row?.next ?? 0) - 1;
    },
  };
}

export type EventStore = ReturnType<typeof createEventStore>;
