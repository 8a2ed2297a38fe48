import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { getSimplePaths } from 'xstate/graph';
import { agentControllerMachine, agentStateOf, type AgentControllerSnapshot } from './controller.ts';
import {
  maxIterationsReason,
  type AgentControllerInput,
  type ModelFailure,
  type ModelStep,
  type PlannedAction,
} from './controller-types.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  serializeEvent,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from '../../tests/model/model-paths.ts';

// A long retry delay: the delayed transition is taken by the path's explicit `xstate.after` step, never by the clock.
const input: AgentControllerInput = {
  maxIterations: 2,
  retryPolicy: { maxRetries: 1, initialDelayMs: 60_000, maxDelayMs: 60_000 },
};

const action = (id: string, flags: Partial<PlannedAction> = {}): PlannedAction => ({
  id,
  needsConfirmation: false,
  finishes: false,
  ...flags,
});
const modelReply = (output: ModelStep) => ({ type: 'xstate.done.actor.callModel', output });
const modelFailure = (failure: ModelFailure) => ({ type: 'xstate.error.actor.callModel', error: failure });
/** Every executed action has the same result, so four in a row are a loop. */
const sameResult = { action: 'execute_bash ls', observation: 'a.txt', error: false };

const events: AnyEventObject[] = [
  { type: 'USER_MESSAGE' },
  { type: 'PAUSE' },
  { type: 'RESUME' },
  { type: 'STOP' },
  { type: 'CONFIRM' },
  { type: 'REJECT' },
  { type: 'xstate.done.actor.prepare' },
  { type: 'xstate.error.actor.prepare', error: new Error('No language model is configured.') },
  { type: 'xstate.done.actor.takeUserMessages' },
  { type: 'xstate.error.actor.takeUserMessages', error: new Error('The workspace is gone') },
  { type: 'xstate.done.actor.checkLimits', output: { ok: true } },
  {
    type: 'xstate.done.actor.checkLimits',
    output: { ok: false, problem: { reason: 'Insufficient credits.', errorId: 'STATUS$ERROR_LLM_OUT_OF_CREDITS' } },
  },
  { type: 'xstate.error.actor.checkLimits', error: new Error('The ledger is unreachable') },
  modelReply({ text: 'Which framework?', actions: [] }),
  modelReply({ text: 'Listing.', actions: [action('run')] }),
  modelReply({ text: '', actions: [action('risky', { needsConfirmation: true })] }),
  modelReply({ text: '', actions: [action('finish', { finishes: true })] }),
  modelReply({ text: '', actions: ['a', 'b', 'c', 'd'].map((id) => action(id)) }),
  modelFailure({
    reason: 'Rate limited (HTTP 429)',
    errorId: 'STATUS$ERROR_LLM_RATE_LIMITED',
    retryable: true,
    retryAfterMs: null,
  }),
  modelFailure({
    reason: 'Bad API key (HTTP 401)',
    errorId: 'STATUS$ERROR_LLM_AUTHENTICATION',
    retryable: false,
    retryAfterMs: null,
  }),
  { type: 'xstate.done.actor.announceAction', output: { eventId: 7 } },
  { type: 'xstate.error.actor.announceAction', error: new Error('The event store is down') },
  { type: 'xstate.done.actor.runAction', output: sameResult },
  { type: 'xstate.error.actor.runAction', error: new Error('The runtime crashed') },
  { type: 'xstate.after.retryDelay.agentController.rateLimited' },
];

const fakes: FakeSideEffects = {
  promises: ['prepare', 'takeUserMessages', 'checkLimits', 'callModel', 'announceAction', 'runAction'],
  callbacks: {},
  actions: ['announceState', 'sayToUser', 'restateAction', 'rejectAction', 'abandonAction'],
};

/** States differ by their value and the context the guards read; the context is small and bounded by the input. */
const summarize = (snapshot: AnyMachineSnapshot) => ({ value: snapshot.value, context: snapshot.context });

const agentState = (snapshot: AnyMachineSnapshot) => agentStateOf(snapshot as AgentControllerSnapshot);

/** Leaving a top-level state for another one always announces the new agent state, and only side effects the step explains happen. */
function expectStep({ event, before, after, effects, effectParams, started }: StepRecord) {
  const top = (snapshot: AnyMachineSnapshot) =>
    typeof snapshot.value === 'string' ? snapshot.value : Object.keys(snapshot.value)[0];
  const announced = effects.flatMap((effect, index) =>
    effect === 'announceState' ? [(effectParams[index] as { state: string }).state] : [],
  );
  const expected = event.type === 'CONFIRM' ? ['USER_CONFIRMED', 'RUNNING'] : [agentState(after)];
  if (top(before) !== top(after))
    expect(announced, `${serializeEvent(event)} announces ${expected.join(' then ')}`).toEqual(expected);
  if (top(before) === top(after) && event.type !== 'xstate.after.retryDelay.agentController.rateLimited')
    expect(announced).toEqual([]);

  if (event.type === 'REJECT') expect(effects).toEqual(['restateAction', 'rejectAction', 'announceState']);
  if (event.type === 'REJECT') expect(agentState(after)).toBe('USER_REJECTED');
  if (event.type === 'CONFIRM') expect(effects).toEqual(['restateAction', 'announceState', 'announceState']);
  if (event.type === 'STOP' && agentState(before) === 'AWAITING_USER_CONFIRMATION')
    expect(effects).toContain('abandonAction');
  const reply =
    event.type === 'xstate.done.actor.callModel' ? (event as unknown as { output: ModelStep }).output : null;
  expect(effects.includes('sayToUser')).toBe(reply !== null && reply.actions.length === 0);

  const runs = started.filter((actor) => actor.src === 'runAction');
  for (const run of runs)
    expect(run.input).toEqual({ actionId: after.context.pending[0]?.id, eventId: after.context.currentEventId });

  if (agentState(after) === 'PAUSED' && after.context.problem)
    expect(after.context.problem.reason).toBe(maxIterationsReason(input.maxIterations));
  if (agentState(after) === 'ERROR') expect(after.context.problem?.reason).toBeTruthy();
  if (agentState(after) === 'AWAITING_USER_CONFIRMATION')
    expect(after.context.pending[0]?.needsConfirmation).toBe(true);
}

const paths = withoutPrefixPaths(pathsThroughEveryEdge(agentControllerMachine, { events, input, summarize }));
const coverage = new Coverage(agentControllerMachine);

describe('agent controller: a path through every transition', () => {
  afterAll(() => {
    console.log(coverage.summary(paths.length));
  });

  for (const path of paths) {
    it(describePath(path), async () => {
      await runPath(agentControllerMachine, path, { fakes, input, coverage, expectStep });
    });
  }

  it('reached every state and every transition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });
});

describe('agent controller: every simple way to finish a task', () => {
  const happyEvents: AnyEventObject[] = [
    { type: 'USER_MESSAGE' },
    { type: 'CONFIRM' },
    { type: 'xstate.done.actor.prepare' },
    { type: 'xstate.done.actor.takeUserMessages' },
    { type: 'xstate.done.actor.checkLimits', output: { ok: true } },
    modelReply({ text: 'Listing.', actions: [action('run')] }),
    modelReply({ text: '', actions: [action('risky', { needsConfirmation: true })] }),
    modelReply({ text: '', actions: [action('finish', { finishes: true })] }),
    { type: 'xstate.done.actor.announceAction', output: { eventId: 7 } },
    { type: 'xstate.done.actor.runAction', output: sameResult },
  ];
  const finishing = getSimplePaths(agentControllerMachine as AnyStateMachine, {
    events: happyEvents,
    input,
    serializeEvent,
    toState: (snapshot) => snapshot.matches('finished'),
  });

  it('finds every way through actions and confirmations (a message while loading starts at once), each from LOADING to FINISHED through RUNNING', () => {
    console.log(`agentController: ${finishing.length} simple paths from loading to finished`);
    expect(finishing.length).toBeGreaterThan(3);
    for (const path of finishing) {
      const states = path.steps
        .map((step) => agentState(step.state))
        .filter((state, index, all) => state !== all[index - 1]);
      expect(states[0]).toBe('LOADING');
      expect(states.filter((state) => state !== 'AWAITING_USER_INPUT').slice(0, 2)).toEqual(['LOADING', 'RUNNING']);
      expect(states.at(-1)).toBe('FINISHED');
      states.forEach((state, index) => {
        if (state === 'AWAITING_USER_CONFIRMATION') expect(states[index + 1]).toBe('RUNNING');
      });
      expect(states).not.toContain('ERROR');
    }
  });
});
