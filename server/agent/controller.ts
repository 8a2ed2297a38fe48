import { assign, setup, type SnapshotFrom } from 'xstate';
import { notProvidedAction, notProvidedPromise } from '../../machines/not-provided.ts';
import { backoffDelay } from './llm/backoff.ts';
import {
  isModelFailure,
  maxIterationsReason,
  problemOf,
  type AgentControllerContext,
  type AgentControllerEvent,
  type AgentControllerInput,
  type AgentState,
  type LimitCheck,
  type ModelFailure,
  type ModelStep,
} from './controller-types.ts';
import { STEPS_TO_KEEP, stuckReason, type StepSignature } from './stuck-detector.ts';

// The agent's control loop: one agent state per top-level state, as the spec names them.
//
// loading: the session prepares (tools, MCP servers, system prompt); a message sent meanwhile
//   starts the run once it is ready.
// running: each step recalls context for new user messages, checks the limits (iterations,
//   stuck loop, budget, credits), calls the model, then announces and runs its tool calls one
//   by one. A reply without tool calls goes to the user and waits for their answer; `finish`
//   ends the task. A user message sent while running is already in the history, so the next
//   step sees it.
// rateLimited: a retryable model failure (429, 5xx, network) waits with exponential backoff,
//   then the step is tried again; past the retry limit the run ends in error.
// awaitingUserConfirmation: confirmation mode holds a risky action until the user confirms
//   (it runs) or rejects it (the user decides what next).
// paused / stopped: the user's PAUSED / STOPPED leave the step in flight (aborting the model
//   call or interrupting the tool); the planned actions not yet started are dropped, so
//   continuing asks the model again with everything that happened.
//
// Every side effect is provided by the session (server/agent/session.ts): the actors do the
// I/O, the actions emit events.

export const agentControllerMachine = setup({
  types: {
    context: {} as AgentControllerContext,
    events: {} as AgentControllerEvent,
    input: {} as AgentControllerInput,
  },
  actors: {
    /** Connects the tools (MCP servers), emits the system prompt, restores metrics; fails when the agent cannot work. */
    prepare: notProvidedPromise<void>('prepare'),
    /** Emits the recall (workspace context, triggered microagents) for user messages not yet recalled. */
    takeUserMessages: notProvidedPromise<void>('takeUserMessages'),
    /** Budget and credits, before every model call. */
    checkLimits: notProvidedPromise<LimitCheck>('checkLimits'),
    /** One model call with the history (condensed when needed); rejects with a ModelFailure. */
    callModel: notProvidedPromise<ModelStep>('callModel'),
    /** Emits the action event of a planned action (before it runs); resolves with the event id. */
    announceAction: notProvidedPromise<{ eventId: number }, { actionId: string; awaitingConfirmation: boolean }>(
      'announceAction',
    ),
    /** Runs the action and emits its observation (also when interrupted); resolves with what the stuck detector needs. */
    runAction: notProvidedPromise<StepSignature, { actionId: string; eventId: number }>('runAction'),
  },
  actions: {
    /** Emits agent_state_changed (and, for a problem, an error status update first). */
    announceState: notProvidedAction<{ state: AgentState }>('announceState'),
    /** Emits the model's reply to the user. */
    sayToUser: notProvidedAction<{ text: string }>('sayToUser'),
    /** Emits the awaiting action again with the user's decision, for the security log. */
    restateAction: notProvidedAction<{ confirmation: 'confirmed' | 'rejected' }>('restateAction'),
    /** Emits the user_rejected observation of the awaiting action. */
    rejectAction: notProvidedAction('rejectAction'),
    /** Emits an observation saying the awaiting action will not run (the user stopped the agent instead of deciding). */
    abandonAction: notProvidedAction('abandonAction'),
    startTask: assign({
      iterations: 0,
      retries: 0,
      pending: [],
      currentEventId: null,
      recentSteps: [],
      problem: null,
      startWhenLoaded: false,
    }),
    dropPlannedActions: assign({ pending: [], currentEventId: null }),
    forgetProblem: assign({ problem: null }),
    finishCurrentAction: assign(({ context }) => ({ pending: context.pending.slice(1), currentEventId: null })),
    recordStep: assign(({ context }, step: StepSignature) => ({
      recentSteps: [...context.recentSteps, step].slice(-STEPS_TO_KEEP),
    })),
  },
  guards: {
    startWhenLoaded: ({ context }) => context.startWhenLoaded,
    stuck: ({ context }) => stuckReason(context.recentSteps) !== null,
    iterationLimitReached: ({ context }) => context.iterations >= context.maxIterations,
    /** Read before the finished action leaves the queue. */
    moreActionsPlanned: ({ context }) => context.pending.length > 1,
    nextFinishes: ({ context }) => context.pending[0]?.finishes === true,
    nextNeedsConfirmation: ({ context }) => context.pending[0]?.needsConfirmation === true,
  },
  delays: {
    retryDelay: ({ context }) => context.retryDelayMs,
  },
}).createMachine({
  id: 'agentController',
  context: ({ input }) => ({
    maxIterations: input.maxIterations,
    retryPolicy: input.retryPolicy,
    iterations: 0,
    retries: 0,
    retryDelayMs: 0,
    pending: [],
    currentEventId: null,
    recentSteps: [],
    problem: null,
    startWhenLoaded: false,
  }),
  initial: 'loading',
  states: {
    loading: {
      entry: { type: 'announceState', params: { state: 'LOADING' } },
      invoke: {
        id: 'prepare',
        src: 'prepare',
        onDone: [
          { guard: 'startWhenLoaded', target: 'running', actions: 'startTask' },
          { target: 'awaitingUserInput' },
        ],
        onError: { target: 'error', actions: assign({ problem: ({ event }) => problemOf(event.error) }) },
      },
      on: {
        USER_MESSAGE: { actions: assign({ startWhenLoaded: true }) },
        STOP: 'stopped',
      },
    },
    awaitingUserInput: {
      entry: { type: 'announceState', params: { state: 'AWAITING_USER_INPUT' } },
      on: { USER_MESSAGE: { target: 'running', actions: 'startTask' } },
    },
    running: {
      entry: { type: 'announceState', params: { state: 'RUNNING' } },
      on: {
        PAUSE: { target: 'paused', actions: ['dropPlannedActions', 'forgetProblem'] },
        STOP: { target: 'stopped', actions: 'dropPlannedActions' },
      },
      initial: 'intake',
      states: {
        intake: {
          invoke: {
            id: 'takeUserMessages',
            src: 'takeUserMessages',
            onDone: [
              {
                guard: 'stuck',
                target: '#agentController.error',
                actions: assign({
                  problem: ({ context }) => ({
                    reason: stuckReason(context.recentSteps) ?? '',
                    errorId: 'AGENT_ERROR$STUCK_IN_LOOP',
                  }),
                }),
              },
              {
                guard: 'iterationLimitReached',
                target: '#agentController.paused',
                actions: assign({
                  problem: ({ context }) => ({
                    reason: maxIterationsReason(context.maxIterations),
                    errorId: 'AGENT_ERROR$MAX_ITERATIONS',
                  }),
                }),
              },
              { target: 'checkingLimits' },
            ],
            onError: {
              target: '#agentController.error',
              actions: assign({ problem: ({ event }) => problemOf(event.error) }),
            },
          },
        },
        checkingLimits: {
          invoke: {
            id: 'checkLimits',
            src: 'checkLimits',
            onDone: [
              {
                guard: ({ event }) => !event.output.ok,
                target: '#agentController.error',
                actions: assign({ problem: ({ event }) => (event.output.ok ? null : event.output.problem) }),
              },
              { target: 'thinking' },
            ],
            onError: {
              target: '#agentController.error',
              actions: assign({ problem: ({ event }) => problemOf(event.error) }),
            },
          },
        },
        thinking: {
          invoke: {
            id: 'callModel',
            src: 'callModel',
            onDone: [
              {
                guard: ({ event }) => event.output.actions.length > 0,
                target: 'acting',
                actions: assign(({ context, event }) => ({
                  pending: event.output.actions,
                  iterations: context.iterations + 1,
                  retries: 0,
                })),
              },
              {
                target: '#agentController.awaitingUserInput',
                actions: [
                  { type: 'sayToUser', params: ({ event }) => ({ text: event.output.text }) },
                  assign(({ context }) => ({ iterations: context.iterations + 1, retries: 0 })),
                ],
              },
            ],
            onError: [
              {
                guard: ({ context, event }) =>
                  isModelFailure(event.error) &&
                  event.error.retryable &&
                  context.retries < context.retryPolicy.maxRetries,
                target: '#agentController.rateLimited',
                actions: assign(({ context, event }) => {
                  const failure = event.error as ModelFailure;
                  return {
                    retries: context.retries + 1,
                    retryDelayMs: backoffDelay(context.retryPolicy, context.retries + 1, failure.retryAfterMs),
                    problem: problemOf(failure),
                  };
                }),
              },
              { target: '#agentController.error', actions: assign({ problem: ({ event }) => problemOf(event.error) }) },
            ],
          },
        },
        acting: {
          initial: 'announcing',
          states: {
            announcing: {
              invoke: {
                id: 'announceAction',
                src: 'announceAction',
                input: ({ context }) => ({
                  actionId: context.pending[0]?.id ?? '',
                  awaitingConfirmation: context.pending[0]?.needsConfirmation ?? false,
                }),
                onDone: [
                  { guard: 'nextFinishes', target: '#agentController.finished', actions: 'dropPlannedActions' },
                  {
                    guard: 'nextNeedsConfirmation',
                    target: '#agentController.awaitingUserConfirmation',
                    actions: assign({ currentEventId: ({ event }) => event.output.eventId }),
                  },
                  { target: 'executing', actions: assign({ currentEventId: ({ event }) => event.output.eventId }) },
                ],
                onError: {
                  target: '#agentController.error',
                  actions: assign({ problem: ({ event }) => problemOf(event.error) }),
                },
              },
            },
            executing: {
              invoke: {
                id: 'runAction',
                src: 'runAction',
                input: ({ context }) => ({
                  actionId: context.pending[0]?.id ?? '',
                  eventId: context.currentEventId ?? -1,
                }),
                onDone: [
                  {
                    guard: 'moreActionsPlanned',
                    target: 'announcing',
                    reenter: true,
                    actions: [{ type: 'recordStep', params: ({ event }) => event.output }, 'finishCurrentAction'],
                  },
                  {
                    target: '#agentController.running.intake',
                    actions: [{ type: 'recordStep', params: ({ event }) => event.output }, 'finishCurrentAction'],
                  },
                ],
                onError: {
                  target: '#agentController.error',
                  actions: assign({ problem: ({ event }) => problemOf(event.error) }),
                },
              },
            },
          },
        },
      },
    },
    rateLimited: {
      entry: { type: 'announceState', params: { state: 'RATE_LIMITED' } },
      after: { retryDelay: { target: 'running', actions: 'forgetProblem' } },
      on: {
        PAUSE: { target: 'paused', actions: ['dropPlannedActions', 'forgetProblem'] },
        STOP: { target: 'stopped', actions: ['dropPlannedActions', 'forgetProblem'] },
      },
    },
    awaitingUserConfirmation: {
      entry: { type: 'announceState', params: { state: 'AWAITING_USER_CONFIRMATION' } },
      on: {
        // The decision is announced (USER_CONFIRMED) before the state it leads to (RUNNING, announced on entry).
        CONFIRM: {
          target: '#agentController.running.acting.executing',
          actions: [
            { type: 'restateAction', params: { confirmation: 'confirmed' } },
            { type: 'announceState', params: { state: 'USER_CONFIRMED' } },
          ],
        },
        REJECT: {
          target: 'userRejected',
          actions: [
            { type: 'restateAction', params: { confirmation: 'rejected' } },
            'rejectAction',
            'dropPlannedActions',
          ],
        },
        STOP: { target: 'stopped', actions: ['abandonAction', 'dropPlannedActions'] },
      },
    },
    // Waits for the user's next message, as awaitingUserInput does; the state says why the task stopped.
    userRejected: {
      entry: { type: 'announceState', params: { state: 'USER_REJECTED' } },
      on: { USER_MESSAGE: { target: 'running', actions: 'startTask' } },
    },
    paused: {
      entry: { type: 'announceState', params: { state: 'PAUSED' } },
      on: {
        USER_MESSAGE: { target: 'running', actions: 'startTask' },
        RESUME: { target: 'running', actions: 'startTask' },
        STOP: { target: 'stopped', actions: 'forgetProblem' },
      },
    },
    stopped: {
      entry: { type: 'announceState', params: { state: 'STOPPED' } },
      on: { USER_MESSAGE: { target: 'running', actions: 'startTask' } },
    },
    finished: {
      entry: { type: 'announceState', params: { state: 'FINISHED' } },
      on: { USER_MESSAGE: { target: 'running', actions: 'startTask' } },
    },
    error: {
      entry: { type: 'announceState', params: { state: 'ERROR' } },
      on: { USER_MESSAGE: { target: 'running', actions: 'startTask' } },
    },
  },
});

export type AgentControllerSnapshot = SnapshotFrom<typeof agentControllerMachine>;

const AGENT_STATES: Readonly<Record<string, AgentState>> = {
  loading: 'LOADING',
  awaitingUserInput: 'AWAITING_USER_INPUT',
  running: 'RUNNING',
  rateLimited: 'RATE_LIMITED',
  awaitingUserConfirmation: 'AWAITING_USER_CONFIRMATION',
  userRejected: 'USER_REJECTED',
  paused: 'PAUSED',
  stopped: 'STOPPED',
  finished: 'FINISHED',
  error: 'ERROR',
};

/** The agent state the spec names for a snapshot of the controller. */
export function agentStateOf(snapshot: AgentControllerSnapshot): AgentState {
  const top = typeof snapshot.value === 'string' ? snapshot.value : (Object.keys(snapshot.value)[0] ?? 'loading');
  return AGENT_STATES[top] ?? 'LOADING';
}
