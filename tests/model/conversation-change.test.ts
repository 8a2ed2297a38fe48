import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyEventObject } from 'xstate';
import {
  conversationChangeMachine,
  renamedTitle,
  type ConversationChange,
} from '../../machines/conversation-change.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const refusal = (status: number, message: string) => Object.assign(new Error(message), { status });

const changes: ConversationChange[] = [
  { kind: 'stop', conversationId: 'c-1' },
  { kind: 'delete', conversationId: 'c-1' },
  { kind: 'rename', conversationId: 'c-1', current: 'Todo app', title: '  Todo app with dark mode ' },
  { kind: 'rename', conversationId: 'c-1', current: 'Todo app', title: ' Todo app ' },
  { kind: 'rename', conversationId: 'c-1', current: 'Todo app', title: '   ' },
];

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.change' },
  { type: 'xstate.error.actor.change', error: refusal(422, 'The title must be 1 to 200 characters.') },
  { type: 'xstate.error.actor.change', error: new TypeError('Failed to fetch') },
];

const fakes: FakeSideEffects = {
  promises: ['change'],
  callbacks: {},
  actions: ['leaveIfOpen', 'announceDone', 'announceFailure'],
};

function expectStep(change: ConversationChange) {
  return ({ event, effects, effectParams }: StepRecord) => {
    if (event.type === 'xstate.done.actor.change') {
      expect(effects).toEqual(['announceDone']);
      expect(effectParams).toEqual([{ kind: change.kind }]);
    } else {
      expect(effects).toEqual(['announceFailure']);
      const error = (event as unknown as { error: Error }).error;
      // The server's own words when it gave some, else the change's message.
      expect(effectParams).toEqual([
        error instanceof TypeError
          ? { kind: 'message', message: `${change.kind}Failed` }
          : { kind: 'server', text: error.message },
      ]);
    }
  };
}

const coverage = new Coverage(conversationChangeMachine);
let pathCount = 0;

describe.each(
  changes.map(
    (change) => [`${change.kind} ${JSON.stringify(change.kind === 'rename' ? change.title : '')}`, change] as const,
  ),
)('a conversation change (%s), every edge of its graph', (_name, change) => {
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(conversationChangeMachine, { events, input: change }));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_path, path) => {
    const reached = await runPath(conversationChangeMachine, path, {
      fakes,
      input: change,
      coverage,
      expectStep: expectStep(change),
    });
    expect(reached.value).toEqual(path.state.value);
  });
});

describe('a conversation change', () => {
  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });
  afterAll(() => console.log(coverage.summary(pathCount)));

  it('leaves the open conversation at once for a stop or delete, calls the server with the trimmed title, and makes no call for a cancelled rename', async () => {
    const run = async (change: ConversationChange) => {
      const calls: unknown[] = [];
      const left: unknown[] = [];
      const actor = createActor(
        conversationChangeMachine.provide({
          actors: { change: fromPromise(async ({ input }) => void calls.push(input)) },
          actions: {
            leaveIfOpen: (_, params) => void left.push(params),
            announceDone: () => {},
            announceFailure: () => {},
          },
        }),
        { input: change },
      ).start();
      await new Promise((resolve) => setTimeout(resolve, 0));
      return { calls, left, state: actor.getSnapshot().value };
    };
    expect(await run(changes[0] as ConversationChange)).toEqual({
      calls: [changes[0]],
      left: [{ conversationId: 'c-1' }],
      state: 'changed',
    });
    expect(await run(changes[1] as ConversationChange)).toEqual({
      calls: [changes[1]],
      left: [{ conversationId: 'c-1' }],
      state: 'changed',
    });
    expect(await run(changes[2] as ConversationChange)).toEqual({
      calls: [{ kind: 'rename', conversationId: 'c-1', title: 'Todo app with dark mode' }],
      left: [],
      state: 'changed',
    });
    expect(await run(changes[3] as ConversationChange)).toEqual({ calls: [], left: [], state: 'cancelled' });
  });

  it('cancels a rename to an empty or unchanged title, trims the others', () => {
    expect(renamedTitle('Todo app', '')).toBeNull();
    expect(renamedTitle('Todo app', '   ')).toBeNull();
    expect(renamedTitle('Todo app', ' Todo app ')).toBeNull();
    expect(renamedTitle('Todo app', ' Notes ')).toBe('Notes');
  });
});
