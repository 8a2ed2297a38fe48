import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { eventFeedback, trajectoryFeedback } from '../../db/schema.ts';

export type EventFeedbackRow = typeof eventFeedback.$inferSelect;

/** The event_feedback and trajectory_feedback tables. */
export function createFeedbackStore(db: Db) {
  return {
    insertRating: (row: typeof eventFeedback.$inferInsert) => db.insert(eventFeedback).values(row),
    async rating(conversationId: string, eventId: number): Promise<EventFeedbackRow | undefined> {
      const [row] = await db
        .select()
        .from(eventFeedback)
        .where(and(eq(eventFeedback.conversationId, conversationId), eq(eventFeedback.eventId, eventId)));
      return row;
    },
    ratings: (conversationId: string) =>
      db
        .select()
        .from(eventFeedback)
        .where(eq(eventFeedback.conversationId, conversationId))
        .orderBy(asc(eventFeedback.eventId)),
    insertTrajectory: (row: typeof trajectoryFeedback.$inferInsert) => db.insert(trajectoryFeedback).values(row),
  };
}
