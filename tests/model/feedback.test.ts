import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type AnyEventObject } from 'xstate';
import {
  feedbackMachine,
  isRatable,
  REASON_COUNTDOWN_SECONDS,
  selectCountdown,
  selectShowThanks,
  selectStarsLocked,
  type EventFeedback,
  type Feedback,
  type FeedbackEvent,
} from '../../machines/feedback.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const tick = { type: 'xstate.after.countdownTick.feedback.choosingReason' };
const rated: EventFeedback = { exists: true, rating: 5, reason: null, metadata: { source: 'likert-scale' } };
const unrated: EventFeedback = { exists: false, rating: null, reason: null, metadata: null };

const events: (FeedbackEvent | AnyEventObject)[] = [
  { type: 'xstate.done.actor.checkFeedback', output: rated },
  { type: 'xstate.done.actor.checkFeedback', output: unrated },
  { type: 'xstate.error.actor.checkFeedback', error: new TypeError('Failed to fetch') },
  { type: 'RATE', rating: 5 },
  { type: 'RATE', rating: 4 },
  { type: 'RATE', rating: 2 },
  { type: 'RATE', rating: 0 },
  { type: 'RATE', rating: 6 },
  { type: 'CHOOSE_REASON', reason: 'tooSlow' },
  tick,
  { type: 'RETRY' },
  { type: 'RATABLE_CHANGED', ratable: false },
  { type: 'xstate.done.actor.submitFeedback' },
  { type: 'xstate.error.actor.submitFeedback', error: new TypeError('Failed to fetch') },
];

const fakes: FakeSideEffects = { promises: ['checkFeedback', 'submitFeedback'], callbacks: {}, actions: [] };

function expectSideEffects({ event, before, after, started }: StepRecord) {
  for (const { src, input } of started) {
    if (src === 'checkFeedback') expect(input).toEqual({ conversationId: 'c-1', eventId: 42 });
    if (src === 'submitFeedback') {
      const feedback = input as Feedback;
      expect(feedback).toEqual({
        conversation_id: 'c-1',
        event_id: 42,
        rating: after.context.rating,
        // A reason only when one was chosen; the countdown's end sends none.
        reason: event.type === 'CHOOSE_REASON' ? 'tooSlow' : event.type === 'RETRY' ? before.context.reason : null,
        metadata: { source: 'likert-scale' },
      });
    }
  }
  if (event.type === 'RATE' && after.matches('choosingReason'))
    expect(after.context.countdown).toBe(REASON_COUNTDOWN_SECONDS);
  if (event.type === 'RATE' && after.matches('submitting')) expect(after.context.rating).toBeGreaterThanOrEqual(4);
  if (event.type === tick.type) {
    expect(after.context.countdown).toBe(before.context.countdown - 1);
    expect(after.matches('submitting')).toBe(before.context.countdown === 1);
  }
}

const coverage = new Coverage(feedbackMachine);
let pathCount = 0;

describe('feedback machine, every edge of its graph', () => {
  for (const ratable of [true, false]) {
    const input = { conversationId: 'c-1', eventId: 42, ratable };
    describe(ratable ? 'on one of the last 10 events' : 'on an older event', () => {
      const paths = withoutPrefixPaths(pathsThroughEveryEdge(feedbackMachine, { events, input }));
      pathCount += paths.length;
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        const reached = await runPath(feedbackMachine, path, { fakes, input, coverage, expectStep: expectSideEffects });
        expect(reached.value).toEqual(path.state.value);
        // An older event cannot be rated: no RATE step is ever possible.
        if (!ratable) expect(path.steps.some((step) => step.event.type === 'RATE')).toBe(false);
      });
    });
  }

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('feedback rules', () => {
  it('offers ratings only on the last 10 events', () => {
    expect(isRatable(9, 20)).toBe(false);
    expect(isRatable(10, 20)).toBe(true);
    expect(isRatable(19, 20)).toBe(true);
    expect(isRatable(0, 3)).toBe(true);
    expect(isRatable(20, 20)).toBe(false);
  });

  it('counts down 10 s in ticks of a second, then sends the low rating without a reason and locks the stars', async () => {
    const sent: Feedback[] = [];
    const clock = new SimulatedClock();
    const actor = createActor(
      feedbackMachine.provide({
        actors: {
          checkFeedback: fromPromise(async () => unrated),
          submitFeedback: fromPromise<void, Feedback>(async ({ input }) => void sent.push(input)),
        },
      }),
      { clock, input: { conversationId: 'c-1', eventId: 7, ratable: true } },
    ).start();
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    await settle();
    actor.send({ type: 'RATE', rating: 1 });
    expect(selectCountdown(actor.getSnapshot())).toBe(10);
    // Tick by tick on the machine's own 1 s delay: nothing is sent before the tenth second.
    for (let second = 1; second < REASON_COUNTDOWN_SECONDS; second += 1) {
      clock.increment(1_000);
      expect(selectCountdown(actor.getSnapshot())).toBe(REASON_COUNTDOWN_SECONDS - second);
    }
    expect(sent).toEqual([]);
    clock.increment(1_000);
    await settle();
    expect(sent).toEqual([
      { conversation_id: 'c-1', event_id: 7, rating: 1, reason: null, metadata: { source: 'likert-scale' } },
    ]);
    expect(selectShowThanks(actor.getSnapshot())).toBe(true);
    expect(selectStarsLocked(actor.getSnapshot())).toBe(true);
    actor.stop();
  });
});
