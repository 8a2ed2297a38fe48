import { randomUUID } from 'node:crypto';
import type { components } from '../../../openapi/schema.d.ts';
import { isUniqueViolation, type Db } from '../../db/index.ts';
import { Conflict, NotFound } from '../../shared/domain-errors.ts';
import type { AuthUser } from '../../shared/operations.ts';
import { createFeedbackStore, type EventFeedbackRow } from './store.ts';

type Feedback = components['schemas']['Feedback'];
type EventFeedback = components['schemas']['EventFeedback'];
type TrajectoryFeedbackRequest = components['schemas']['TrajectoryFeedbackRequest'];

/** What feedback needs of the conversations module: ownership and the conversation's events. */
export interface FeedbackDeps {
  db: Db;
  /** The user's conversation, or null (also when it belongs to someone else). */
  findOwned: (user: AuthUser, conversationId: string) => Promise<unknown>;
  events: {
    get: (conversationId: string, id: number) => Promise<unknown>;
    all: (conversationId: string) => Promise<unknown[]>;
  };
}

const NONE: EventFeedback = { exists: false, rating: null, reason: null, metadata: null };

const view = (row: EventFeedbackRow): EventFeedback => ({
  exists: true,
  rating: row.rating,
  reason: row.reason,
  metadata: (row.metadata as Record<string, unknown> | null) ?? null,
});

/** Ratings of single events (one per event) and feedback on whole conversations, each only on the user's own conversations. */
export function createFeedbackService({ db, findOwned, events }: FeedbackDeps) {
  const store = createFeedbackStore(db);
  async function owned(user: AuthUser, conversationId: string) {
    if (!(await findOwned(user, conversationId))) throw new NotFound('Conversation not found');
  }

  return {
    async rate(user: AuthUser, input: Feedback) {
      await owned(user, input.conversation_id);
      if (!(await events.get(input.conversation_id, input.event_id))) throw new NotFound('Event not found');
      try {
        await store.insertRating({
          conversationId: input.conversation_id,
          eventId: input.event_id,
          userId: user.id,
          rating: input.rating,
          reason: input.reason ?? null,
          metadata: input.metadata ?? null,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new Conflict('This event already has a rating.');
        throw error;
      }
    },

    async ofEvent(user: AuthUser, conversationId: string, eventId: number): Promise<EventFeedback> {
      await owned(user, conversationId);
      const row = await store.rating(conversationId, eventId);
      return row ? view(row) : NONE;
    },

    async ofConversation(user: AuthUser, conversationId: string): Promise<Record<string, EventFeedback>> {
      await owned(user, conversationId);
      const rows = await store.ratings(conversationId);
      return Object.fromEntries(rows.map((row) => [String(row.eventId), view(row)]));
    },

    /** Stores the feedback with a snapshot of the conversation's events as they are now. */
    async onTrajectory(user: AuthUser, conversationId: string, input: TrajectoryFeedbackRequest) {
      await owned(user, conversationId);
      const id = randomUUID();
      await store.insertTrajectory({
        id,
        conversationId,
        userId: user.id,
        polarity: input.polarity,
        permissions: input.permissions,
        feedback: input.feedback ?? null,
        email: input.email ?? null,
        version: input.version ?? null,
        trajectory: await events.all(conversationId),
      });
      return { success: true, feedback_id: id };
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
