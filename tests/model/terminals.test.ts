import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import {
  AGENT_VIEW,
  MAX_USER_TERMINALS,
  selectCanOpenMore,
  terminalsMachine,
  type TerminalsEvent,
} from '../../machines/terminals.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const input = { conversationId: 'c-1' };
const failed = new Error('The runtime is starting; try again in a moment.');

/** Ids in order: only the newest is closed or forgotten below, so none is handed out twice. */
const nextId = (snapshot: AnyMachineSnapshot) => `t-${(snapshot.context.terminals as string[]).length + 1}`;

function events(snapshot: AnyMachineSnapshot): (TerminalsEvent | AnyEventObject)[] {
  const terminals = snapshot.context.terminals as string[];
  // The newest terminal, and the oldest to select: removing others takes no other transition (the rules check them).
  const newest = terminals.slice(-1);
  const closing = snapshot.matches('closing')
    ? [{ type: 'xstate.done.actor.closeTerminal', output: terminals.at(-1) }]
    : [];
  return [
    { type: 'xstate.done.actor.listTerminals', output: [] },
    { type: 'xstate.done.actor.listTerminals', output: ['t-1', 't-2'] },
    { type: 'xstate.error.actor.listTerminals', error: failed },
    { type: 'xstate.done.actor.openTerminal', output: nextId(snapshot) },
    { type: 'xstate.error.actor.openTerminal', error: failed },
    ...closing,
    { type: 'xstate.error.actor.closeTerminal', error: failed },
    { type: 'NEW' },
    ...newest.map((terminalId) => ({ type: 'CLOSE', terminalId })),
    ...newest.map((terminalId) => ({ type: 'FORGET', terminalId })),
    ...terminals.slice(0, 1).map((view) => ({ type: 'SELECT', view })),
    { type: 'SELECT', view: AGENT_VIEW },
    { type: 'SELECT', view: 'no-such-terminal' },
    { type: 'RETRY' },
  ];
}

const fakes: FakeSideEffects = {
  promises: ['listTerminals', 'openTerminal', 'closeTerminal'],
  callbacks: {},
  actions: ['announceFailure'],
};

function expectStep({ event, before, after, effects }: StepRecord) {
  const shown = after.context.terminals as string[];
  // What is selected is always there to see.
  expect([AGENT_VIEW, ...shown]).toContain(after.context.selected);
  expect(shown.length).toBeLessThanOrEqual(MAX_USER_TERMINALS);
  if (event.type.startsWith('xstate.error.')) {
    expect(effects).toEqual(['announceFailure']);
    expect(after.context.terminals).toEqual(before.context.terminals);
  }
  if (event.type === 'xstate.done.actor.openTerminal') expect(after.context.selected).toBe(shown.at(-1));
  if (event.type === 'NEW') expect(after.matches('opening')).toBe(selectCanOpenMore(before));
}

const coverage = new Coverage(terminalsMachine);
let pathCount = 0;

describe('terminals machine, every edge of its graph', () => {
  const paths = withoutPrefixPaths(
    pathsThroughEveryEdge(terminalsMachine, {
      events: (snapshot) =>
        // Up to the limit and one over it; longer lists take no new transition.
        (snapshot.context.terminals as string[]).length >= MAX_USER_TERMINALS
          ? events(snapshot).filter((event) => event.type !== 'xstate.done.actor.openTerminal')
          : events(snapshot),
      input,
    }),
  );
  pathCount = paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(terminalsMachine, path, { fakes, input, coverage, expectStep });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('terminals rules', () => {
  const provided = (closed: string[]) =>
    terminalsMachine.provide({
      actors: {
        listTerminals: fromPromise(async () => ['t-1', 't-2', 't-3']),
        openTerminal: fromPromise(async () => 't-4'),
        closeTerminal: fromPromise<string, { conversationId: string; terminalId: string }>(async ({ input }) => {
          closed.push(input.terminalId);
          return input.terminalId;
        }),
      },
    });
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('shows the newest terminal on opening, and keeps the selection when another one closes', async () => {
    const closed: string[] = [];
    const actor = createActor(provided(closed), { input }).start();
    await settled();
    expect(actor.getSnapshot().context).toMatchObject({ terminals: ['t-1', 't-2', 't-3'], selected: 't-3' });
    actor.send({ type: 'SELECT', view: 't-2' });
    actor.send({ type: 'CLOSE', terminalId: 't-1' });
    await settled();
    expect(closed).toEqual(['t-1']);
    expect(actor.getSnapshot().context).toMatchObject({ terminals: ['t-2', 't-3'], selected: 't-2' });
    // Closing the one shown shows the newest left.
    actor.send({ type: 'CLOSE', terminalId: 't-2' });
    await settled();
    expect(actor.getSnapshot().context).toMatchObject({ terminals: ['t-3'], selected: 't-3' });
    actor.send({ type: 'FORGET', terminalId: 't-3' });
    expect(actor.getSnapshot().context).toMatchObject({ terminals: [], selected: AGENT_VIEW });
  });
});
