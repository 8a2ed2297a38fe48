import { afterAll, describe, expect, it } from 'vitest';
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import {
  microagentLaunchMachine,
  typeTriggers,
  type LaunchSource,
  type LaunchTask,
} from '../../machines/microagent-launch.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const source: LaunchSource = {
  conversationId: 'parent',
  repository: 'octo/widgets',
  branch: 'main',
  provider: 'github',
};
const failure = Object.assign(new Error('Insufficient credits'), { status: 402 });
const PR = 'https://github.com/octo/widgets/pull/3';

// The child ids the server would hand out, and the answers of the children the machine follows.
const tasksOf = (snapshot: AnyMachineSnapshot) => snapshot.context.tasks as LaunchTask[];
// The form is explored on the first launch; a second one (beside or after the first task) shows
// every way tasks go; a third reaches nothing new.
const events = (snapshot: AnyMachineSnapshot): AnyEventObject[] => {
  const tasks = tasksOf(snapshot);
  const firstLaunch = tasks.length === 0;
  return [
    ...(tasks.length < 2 ? [{ type: 'OPEN', eventId: 7 }] : []),
    { type: 'QUERY_CHANGED', value: 'Remember how to run the tests' },
    { type: 'TARGET_CHANGED', value: '.openhands/microagents/tests.md' },
    { type: 'LAUNCH' },
    { type: 'CANCEL' },
    { type: 'xstate.done.actor.rememberPrompt', output: 'Please remember event 7.' },
    { type: 'xstate.done.actor.createConversation', output: `child-${tasks.length + 1}` },
    { type: 'xstate.error.actor.createConversation', error: failure },
    ...(firstLaunch
      ? [
          { type: 'QUERY_CHANGED', value: '  ' },
          { type: 'TRIGGER_INPUT', value: 'tests ' },
          { type: 'TRIGGER_INPUT', value: 'ci' },
          { type: 'TRIGGER_BACKSPACE' },
          { type: 'xstate.error.actor.rememberPrompt', error: failure },
        ]
      : []),
    ...tasks.flatMap(({ conversationId }) => [
      { type: 'CHILD_FINISHED', conversationId, prUrl: PR },
      { type: 'CHILD_FINISHED', conversationId, prUrl: null },
      { type: 'CHILD_FAILED', conversationId },
    ]),
  ];
};
const fakes: FakeSideEffects = {
  promises: ['rememberPrompt', 'createConversation'],
  callbacks: { watchChild: ['CHILD_FINISHED', 'CHILD_FAILED'] },
  actions: ['announce'],
};

function expectSideEffects({ event: step, before, after, started, effects, effectParams }: StepRecord) {
  const event = step as AnyEventObject;
  for (const { src, input } of started) {
    if (src === 'rememberPrompt') expect(input).toEqual({ conversationId: 'parent', eventId: 7 });
    if (src === 'createConversation')
      expect(input).toEqual({
        source,
        eventId: 7,
        query: before.context.query.trim(),
        target: before.context.target.trim(),
        triggers: after.context.triggers,
      });
  }
  // The remember-prompt never replaces a query the user typed meanwhile.
  if (event.type === 'xstate.done.actor.rememberPrompt' && before.context.query !== '')
    expect(after.context.query).toBe(before.context.query);
  // Launch is refused without a query and a target; a trigger still in the input is taken with it.
  if (event.type === 'LAUNCH') {
    expect(before.context.query.trim() !== '' && before.context.target.trim() !== '').toBe(true);
    if (before.context.triggerDraft) expect(after.context.triggers).toContain(before.context.triggerDraft);
  }
  if (event.type === 'TRIGGER_BACKSPACE') {
    expect(before.context.triggerDraft).toBe('');
    expect(after.context.triggers).toEqual(before.context.triggers.slice(0, -1));
  }
  const notices = effectParams.filter((_, index) => effects[index] === 'announce');
  if (event.type === 'xstate.done.actor.createConversation') {
    expect(notices).toEqual([{ kind: 'creating' }]);
    expect(tasksOf(after).at(-1)).toEqual({
      eventId: 7,
      conversationId: event.output,
      status: 'creating',
      prUrl: null,
    });
    expect(after.matches('closed')).toBe(true);
  }
  if (event.type === 'xstate.error.actor.createConversation') {
    expect(notices).toEqual([{ kind: 'error', failure }]);
    expect(after.context.query).toBe(before.context.query);
  }
  if (event.type === 'CHILD_FINISHED' || event.type === 'CHILD_FAILED') {
    const task = tasksOf(after).find((t) => t.conversationId === event.conversationId);
    expect(task).toMatchObject(
      event.type === 'CHILD_FINISHED' ? { status: 'completed', prUrl: event.prUrl } : { status: 'error', prUrl: null },
    );
    expect(notices).toEqual([
      event.type === 'CHILD_FINISHED' ? { kind: 'completed', prUrl: event.prUrl } : { kind: 'error', failure: null },
    ]);
    // The child is no longer followed.
    expect(after.children[`child-${event.conversationId}`]).toBeUndefined();
  }
  if (event.type !== 'xstate.done.actor.createConversation' && !event.type.startsWith('CHILD_'))
    expect(notices.filter((notice) => (notice as { kind: string }).kind !== 'error')).toEqual([]);
}

const input = { source };
const coverage = new Coverage(microagentLaunchMachine);
const paths = withoutPrefixPaths(pathsThroughEveryEdge(microagentLaunchMachine, { events, input }));

describe('microagent launch machine, every edge of its graph', () => {
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    await runPath(microagentLaunchMachine, path, { fakes, input, coverage, expectStep: expectSideEffects });
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(paths.length)));
});

describe('microagent launch', () => {
  it('does not open for a conversation without a repository, branch and provider', () => {
    const actor = createActor(microagentLaunchMachine, { input: { source: null } }).start();
    actor.send({ type: 'OPEN', eventId: 1 });
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('turns each word typed before a space into one trigger', () => {
    expect(typeTriggers([], 'build')).toEqual({ triggers: [], draft: 'build' });
    expect(typeTriggers([], 'build ')).toEqual({ triggers: ['build'], draft: '' });
    expect(typeTriggers(['build'], 'deploy  build ci')).toEqual({ triggers: ['build', 'deploy'], draft: 'ci' });
  });
});
