import { afterAll, describe, expect, it } from 'vitest';
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import {
  AGENT_STATES,
  agentMachine,
  reportsMaximumIterations,
  selectDotColour,
  selectErrorMessage,
  selectSendDisabled,
  selectShowStop,
  selectSuggestionsShown,
  sendDisabled,
  statusDotColour,
  suggestionsShown,
  type AgentEvent,
  type AgentState,
} from '../../machines/agent.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';
import type { Event } from '../../openapi/types.ts';

let nextId = 1;
const event = (fields: Partial<Event>): Event => ({
  id: nextId++,
  source: 'agent',
  timestamp: '2026-01-01T00:00:00Z',
  ...fields,
});
const stateChanged = (agent_state: AgentState, reason?: string): Event =>
  event({
    observation: 'agent_state_changed',
    extras: reason === undefined ? { agent_state } : { agent_state, reason },
  });
const received = (data: Event, live = true): AgentEvent => ({ type: 'EVENT_RECEIVED', event: data, live });

const maxIterations = event({
  observation: 'error',
  content: 'The agent reached the maximum iterations (100) for this task and paused.',
  extras: { error_id: 'AGENT_ERROR$MAX_ITERATIONS' },
});
const agentMessage = event({ action: 'message', args: { content: 'Done: the app runs on port 3000.' } });

const events: (AgentEvent | AnyEventObject)[] = [
  ...AGENT_STATES.filter((state) => state !== 'ERROR').map((state) => received(stateChanged(state))),
  received(stateChanged('ERROR', 'The model provider refused the API key.')),
  received(stateChanged('ERROR')),
  received(stateChanged('ERROR', 'An old failure from the history.'), false),
  received(maxIterations),
  received(agentMessage),
  { type: 'STOP' },
  { type: 'CONFIRM' },
  { type: 'REJECT' },
];

/** Facts the workspace reports; they change the context only (explored on their own, with the whole context told apart). */
const factEvents: (AgentEvent | AnyEventObject)[] = [
  { type: 'CREDITS_CHANGED', balance: 0.05 },
  { type: 'UPLOADING_CHANGED', uploading: true },
  { type: 'OPTIMISTIC_CHANGED', pending: true },
  { type: 'CONNECTION_CHANGED', connection: 'CONNECTED' },
  { type: 'CONVERSATION_STATUS_CHANGED', status: 'RUNNING' },
];

const fakes: FakeSideEffects = { promises: [], callbacks: {}, actions: ['requestAgentState', 'announceError'] };

function expectSideEffects({ event: step, before, after, effects }: StepRecord) {
  const data = (step as unknown as { event?: Event }).event;
  if (step.type === 'STOP' || step.type === 'CONFIRM' || step.type === 'REJECT') {
    expect(effects).toEqual(['requestAgentState']);
    // Asking does not change the state: the server's observation does.
    expect(after.value).toEqual(before.value);
  } else if (data === maxIterations) {
    expect(effects).toEqual(before.matches('RUNNING') ? ['requestAgentState'] : []);
  } else if (data?.observation === 'agent_state_changed' && data.extras?.agent_state === 'ERROR') {
    expect(effects).toEqual((step as { live?: boolean }).live ? ['announceError'] : []);
    expect(after.context.errorMessage).toEqual(
      data.extras.reason ? { kind: 'server', text: data.extras.reason } : { kind: 'message', message: 'unknownError' },
    );
  } else {
    expect(effects).toEqual([]);
  }
  if (data?.observation === 'agent_state_changed') {
    expect(after.value).toBe(data.extras?.agent_state);
    if (data.extras?.agent_state !== 'ERROR') expect(after.context.errorMessage).toBeNull();
  }
  if (data === agentMessage) expect(after.context.hasActed).toBe(true);
}

const summarize = (snapshot: AnyMachineSnapshot) => ({
  value: snapshot.value,
  hasActed: snapshot.context.hasActed,
  error: snapshot.context.errorMessage,
});

const coverage = new Coverage(agentMachine);
let pathCount = 0;

describe('agent machine, every edge of its graph', () => {
  for (const [name, eventSet, summary] of [
    ['agent states and commands', events, summarize],
    [
      'workspace facts',
      factEvents,
      (snapshot: AnyMachineSnapshot) => ({ value: snapshot.value, context: snapshot.context }),
    ],
  ] as const) {
    describe(name, () => {
      const paths = withoutPrefixPaths(pathsThroughEveryEdge(agentMachine, { events: eventSet, summarize: summary }));
      pathCount += paths.length;
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        const reached = await runPath(agentMachine, path, { fakes, coverage, expectStep: expectSideEffects });
        expect(reached.value).toEqual(path.state.value);
      });
    });
  }

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('agent rules', () => {
  const requested: unknown[] = [];
  const start = () =>
    createActor(
      agentMachine.provide({
        actions: { requestAgentState: (_, params) => void requested.push(params), announceError: () => undefined },
      }),
    ).start();

  it('asks for STOPPED, USER_CONFIRMED, USER_REJECTED and PAUSED (maximum iterations) with the right state', () => {
    const actor = start();
    requested.length = 0;
    actor.send({ type: 'STOP' });
    expect(requested).toEqual([]);
    actor.send(received(stateChanged('RUNNING')));
    expect(selectShowStop(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'STOP' });
    actor.send(received(maxIterations));
    actor.send(received(stateChanged('AWAITING_USER_CONFIRMATION')));
    actor.send({ type: 'CONFIRM' });
    actor.send({ type: 'REJECT' });
    expect(requested).toEqual([
      { agent_state: 'STOPPED' },
      { agent_state: 'PAUSED' },
      { agent_state: 'USER_CONFIRMED' },
      { agent_state: 'USER_REJECTED' },
    ]);
    actor.stop();
  });

  it('recognises the maximum-iterations report by error id or words, never in a state change', () => {
    expect(reportsMaximumIterations(maxIterations)).toBe(true);
    expect(
      reportsMaximumIterations(
        event({ status_update: true, type: 'error', message: 'Agent reached maximum number of iterations' }),
      ),
    ).toBe(true);
    expect(reportsMaximumIterations(stateChanged('PAUSED', 'The agent reached the maximum iterations (100)'))).toBe(
      false,
    );
    expect(reportsMaximumIterations(event({ observation: 'error', content: 'Command failed' }))).toBe(false);
  });

  it('disables send while LOADING, RUNNING, AWAITING_USER_CONFIRMATION, with critical credits or while uploading', () => {
    const online = { connection: 'CONNECTED' as const, connectedOnce: true };
    const idle = { balance: 10, uploading: false, ...online };
    const disabled = AGENT_STATES.filter((state) => sendDisabled(state, idle));
    expect(disabled).toEqual(['LOADING', 'RUNNING', 'AWAITING_USER_CONFIRMATION']);
    expect(sendDisabled('AWAITING_USER_INPUT', { ...idle, balance: 0.09 })).toBe(true);
    expect(sendDisabled('AWAITING_USER_INPUT', { ...idle, balance: 0.1 })).toBe(false);
    expect(sendDisabled('AWAITING_USER_INPUT', { ...idle, balance: null })).toBe(false);
    expect(sendDisabled('FINISHED', { ...idle, uploading: true })).toBe(true);
    // Before the first connection the state is still LOADING: nothing goes.
    expect(sendDisabled('LOADING', { ...idle, connection: 'CONNECTING', connectedOnce: false })).toBe(true);
  });

  it('lets a message wait for the connection once it is lost, whatever state was seen last', () => {
    const lost = { balance: 10, uploading: false, connectedOnce: true };
    for (const connection of ['DISCONNECTED', 'CONNECTING'] as const)
      expect(AGENT_STATES.filter((state) => sendDisabled(state, { ...lost, connection }))).toEqual([]);
    expect(sendDisabled('RUNNING', { ...lost, connection: 'DISCONNECTED', balance: 0.05 })).toBe(true);
    const actor = createActor(agentMachine).start();
    actor.send({ type: 'EVENT_RECEIVED', event: stateChanged('RUNNING'), live: false });
    actor.send({ type: 'CONNECTION_CHANGED', connection: 'CONNECTED' });
    expect(selectSendDisabled(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'CONNECTION_CHANGED', connection: 'DISCONNECTED' });
    expect(selectSendDisabled(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'CONNECTION_CHANGED', connection: 'CONNECTED' });
    expect(selectSendDisabled(actor.getSnapshot())).toBe(true);
    actor.stop();
  });

  it('shows suggestions only in AWAITING_USER_INPUT or FINISHED, after the agent acted, with no optimistic message pending', () => {
    const ready = { hasActed: true, optimisticPending: false };
    expect(AGENT_STATES.filter((state) => suggestionsShown(state, ready))).toEqual(['AWAITING_USER_INPUT', 'FINISHED']);
    expect(suggestionsShown('FINISHED', { hasActed: false, optimisticPending: false })).toBe(false);
    expect(suggestionsShown('FINISHED', { hasActed: true, optimisticPending: true })).toBe(false);
  });

  it('colours the status dot', () => {
    const live = { connection: 'CONNECTED' as const, conversationStatus: 'RUNNING' as const };
    const colours = Object.fromEntries(AGENT_STATES.map((state) => [state, statusDotColour(state, live)]));
    expect(colours).toEqual({
      LOADING: 'yellow',
      INIT: 'yellow',
      RUNNING: 'green',
      AWAITING_USER_INPUT: 'blue',
      AWAITING_USER_CONFIRMATION: 'orange',
      USER_CONFIRMED: 'green',
      USER_REJECTED: 'green',
      PAUSED: 'yellow',
      STOPPED: 'red',
      FINISHED: 'green',
      REJECTED: 'yellow',
      ERROR: 'yellow',
      RATE_LIMITED: 'yellow',
    });
    expect(statusDotColour('RUNNING', { connection: 'DISCONNECTED', conversationStatus: 'RUNNING' })).toBe('red');
    expect(statusDotColour('RUNNING', { connection: 'CONNECTED', conversationStatus: 'STOPPED' })).toBe('red');
    expect(statusDotColour('AWAITING_USER_INPUT', { connection: 'CONNECTED', conversationStatus: 'STARTING' })).toBe(
      'yellow',
    );
    expect(statusDotColour('AWAITING_USER_INPUT', { connection: 'CONNECTING', conversationStatus: 'RUNNING' })).toBe(
      'yellow',
    );
  });

  it('selectors read the machine', () => {
    const actor = start();
    expect(selectDotColour(actor.getSnapshot())).toBe('red');
    actor.send({ type: 'CONNECTION_CHANGED', connection: 'CONNECTED' });
    actor.send({ type: 'CONVERSATION_STATUS_CHANGED', status: 'RUNNING' });
    actor.send(received(stateChanged('RUNNING')));
    expect(selectSendDisabled(actor.getSnapshot())).toBe(true);
    actor.send(received(agentMessage));
    actor.send(received(stateChanged('AWAITING_USER_INPUT')));
    expect(selectSuggestionsShown(actor.getSnapshot())).toBe(true);
    expect(selectDotColour(actor.getSnapshot())).toBe('blue');
    actor.send({ type: 'OPTIMISTIC_CHANGED', pending: true });
    expect(selectSuggestionsShown(actor.getSnapshot())).toBe(false);
    actor.send(received(stateChanged('ERROR', '  ')));
    expect(selectErrorMessage(actor.getSnapshot())).toEqual({ kind: 'message', message: 'unknownError' });
    actor.stop();
  });
});
