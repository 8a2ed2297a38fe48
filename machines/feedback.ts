import { assign, setup, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import { notProvidedPromise } from './not-provided.ts';

// The star rating under an agent message (saas only), for one event.
//
// Ratings 1–5, offered only on the last 10 events. A rating of 4 or 5 is submitted at once; 3 or
// less opens a list of reasons with a 10-second countdown: choosing a reason submits it with the
// rating, the countdown's end submits the rating without one. Once submitted the stars lock and
// a thank-you shows. An event already rated (GET /feedback/conversation/{id}/{eventId}) starts
// locked; a failed check counts as not rated. A failed submission can be retried.

export type Feedback = components['schemas']['Feedback'];
export type EventFeedback = components['schemas']['EventFeedback'];

export const RATABLE_LAST_EVENTS = 10;
export const REASON_COUNTDOWN_SECONDS = 10;
export const LOW_RATING_MAX = 3;

/** i18n keys (workspace namespace) of the reasons offered for a low rating; the reason sent is the key's last part. */
export const LOW_RATING_REASONS = [
  'didNotFollowInstructions',
  'wrongAnswer',
  'tooSlow',
  'brokeSomething',
  'other',
] as const;
export type LowRatingReason = (typeof LOW_RATING_REASONS)[number];

/** Whether the event at `index` (0-based, oldest first) of `count` events may be rated: only the last 10 can. */
export function isRatable(index: number, count: number): boolean {
  return index >= 0 && index < count && count - index <= RATABLE_LAST_EVENTS;
}

export const isValidRating = (rating: number) => Number.isInteger(rating) && rating >= 1 && rating <= 5;
export const isLowRating = (rating: number) => rating <= LOW_RATING_MAX;

export interface FeedbackContext {
  conversationId: string;
  eventId: number;
  ratable: boolean;
  rating: number | null;
  reason: LowRatingReason | null;
  /** Seconds left to choose a reason. */
  countdown: number;
}

export interface FeedbackInput {
  conversationId: string;
  eventId: number;
  /** The event is one of the last 10 (see isRatable). */
  ratable: boolean;
}

export type FeedbackEvent =
  | { type: 'RATE'; rating: number }
  | { type: 'CHOOSE_REASON'; reason: LowRatingReason }
  | { type: 'RETRY' }
  | { type: 'RATABLE_CHANGED'; ratable: boolean };

export const feedbackMachine = setup({
  types: { context: {} as FeedbackContext, events: {} as FeedbackEvent, input: {} as FeedbackInput },
  actors: {
    /** GET /feedback/conversation/{id}/{eventId}. */
    checkFeedback: notProvidedPromise<EventFeedback, { conversationId: string; eventId: number }>('checkFeedback'),
    /** POST /feedback/conversation. */
    submitFeedback: notProvidedPromise<void, Feedback>('submitFeedback'),
  },
  actions: {
    rate: assign((_, rating: number) => ({ rating, reason: null, countdown: REASON_COUNTDOWN_SECONDS })),
    chooseReason: assign((_, reason: LowRatingReason) => ({ reason })),
    tick: assign(({ context }) => ({ countdown: Math.max(0, context.countdown - 1) })),
    rememberExisting: assign((_, existing: EventFeedback) => ({ rating: existing.rating, reason: null })),
    setRatable: assign((_, ratable: boolean) => ({ ratable })),
  },
  guards: {
    canRateHigh: ({ context }, rating: number) => context.ratable && isValidRating(rating) && !isLowRating(rating),
    canRateLow: ({ context }, rating: number) => context.ratable && isValidRating(rating) && isLowRating(rating),
    alreadyRated: (_, existing: EventFeedback) => existing.exists,
    lastSecond: ({ context }) => context.countdown <= 1,
  },
  delays: { countdownTick: 1_000 },
}).createMachine({
  id: 'feedback',
  context: ({ input }) => ({
    conversationId: input.conversationId,
    eventId: input.eventId,
    ratable: input.ratable,
    rating: null,
    reason: null,
    countdown: REASON_COUNTDOWN_SECONDS,
  }),
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        id: 'checkFeedback',
        src: 'checkFeedback',
        input: ({ context }) => ({ conversationId: context.conversationId, eventId: context.eventId }),
        onDone: [
          {
            guard: { type: 'alreadyRated', params: ({ event }) => event.output },
            target: 'submitted',
            actions: { type: 'rememberExisting', params: ({ event }) => event.output },
          },
          { target: 'unrated' },
        ],
        // A failed check means "not rated".
        onError: { target: 'unrated' },
      },
      on: { RATABLE_CHANGED: { actions: { type: 'setRatable', params: ({ event }) => event.ratable } } },
    },
    unrated: {
      on: {
        // Newer events arrived: this one may have left the last 10 (a rating already begun goes on).
        RATABLE_CHANGED: { actions: { type: 'setRatable', params: ({ event }) => event.ratable } },
        RATE: [
          {
            guard: { type: 'canRateHigh', params: ({ event }) => event.rating },
            target: 'submitting',
            actions: { type: 'rate', params: ({ event }) => event.rating },
          },
          {
            guard: { type: 'canRateLow', params: ({ event }) => event.rating },
            target: 'choosingReason',
            actions: { type: 'rate', params: ({ event }) => event.rating },
          },
        ],
      },
    },
    choosingReason: {
      after: {
        countdownTick: [
          { guard: 'lastSecond', target: 'submitting', actions: 'tick' },
          { target: 'choosingReason', reenter: true, actions: 'tick' },
        ],
      },
      on: {
        CHOOSE_REASON: { target: 'submitting', actions: { type: 'chooseReason', params: ({ event }) => event.reason } },
        // Changing the rating: a high one is submitted at once, a low one starts the countdown again.
        RATE: [
          {
            guard: { type: 'canRateHigh', params: ({ event }) => event.rating },
            target: 'submitting',
            actions: { type: 'rate', params: ({ event }) => event.rating },
          },
          {
            guard: { type: 'canRateLow', params: ({ event }) => event.rating },
            target: 'choosingReason',
            reenter: true,
            actions: { type: 'rate', params: ({ event }) => event.rating },
          },
        ],
      },
    },
    submitting: {
      invoke: {
        id: 'submitFeedback',
        src: 'submitFeedback',
        input: ({ context }): Feedback => ({
          conversation_id: context.conversationId,
          event_id: context.eventId,
          rating: context.rating ?? 0,
          reason: context.reason,
          metadata: { source: 'likert-scale' },
        }),
        onDone: { target: 'submitted' },
        onError: { target: 'failed' },
      },
    },
    failed: { on: { RETRY: { target: 'submitting' } } },
    /** Stars locked, thank-you shown. */
    submitted: { type: 'final' },
  },
});

type FeedbackSnapshot = SnapshotFrom<typeof feedbackMachine>;

export const selectRating = (snapshot: FeedbackSnapshot) => snapshot.context.rating;
export const selectStarsLocked = (snapshot: FeedbackSnapshot) =>
  !snapshot.context.ratable || !(snapshot.matches('unrated') || snapshot.matches('choosingReason'));
export const selectShowThanks = (snapshot: FeedbackSnapshot) => snapshot.matches('submitted');
export const selectChoosingReason = (snapshot: FeedbackSnapshot) => snapshot.matches('choosingReason');
export const selectCountdown = (snapshot: FeedbackSnapshot) => snapshot.context.countdown;
export const selectSubmissionFailed = (snapshot: FeedbackSnapshot) => snapshot.matches('failed');
/** The form shows only on the last 10 events (an already-rated one keeps showing its stars). */
export const selectVisible = (snapshot: FeedbackSnapshot) => snapshot.context.ratable || snapshot.matches('submitted');
