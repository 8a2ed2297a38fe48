import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { forkMachine, selectBusy, selectEditing, type ForkEvent } from '../../machines/fork.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const refused = Object.assign(new Error('This conversation has no event 99'), { status: 422 });
const events: (ForkEvent | AnyEventObject)[] = [
  { type: 'FORK', eventId: 7 },
  { type: 'EDIT', eventId: 3, text: 'Make it blue' },
  { type: 'CHANGE', text: 'Make it green' },
  { type: 'CHANGE', text: '   ' },
  { type: 'SEND' },
  { type: 'CANCEL' },
  { type: 'xstate.done.actor.fork', output: 'fork-id' },
  { type: 'xstate.error.actor.fork', error: refused },
];
const fakes: FakeSideEffects = { promises: ['fork'], callbacks: {}, actions: ['openFork', 'announceFailure'] };

function expectStep({ event, before, after, effects, effectParams, started }: StepRecord) {
  if (event.type === 'FORK' && before.matches('idle'))
    expect(started).toEqual([{ src: 'fork', input: { eventId: 7 } }]);
  if (event.type === 'SEND') {
    const draft = (before.context.editing?.draft ?? '').trim();
    // An empty text sends nothing; the edited text is sent trimmed, in place of the message.
    expect(started).toEqual(draft === '' ? [] : [{ src: 'fork', input: { eventId: 3, message: draft } }]);
  }
  if (event.type === 'xstate.done.actor.fork') {
    expect(effects).toEqual(['openFork']);
    expect(effectParams).toEqual(['fork-id']);
    expect(selectEditing(after)).toBeNull();
  }
  if (event.type === 'xstate.error.actor.fork') {
    expect(effects).toEqual(['announceFailure']);
    expect(effectParams).toEqual([{ error: refused }]);
    // A failed edit stays open with its text; a failed plain fork leaves nothing open.
    expect(selectEditing(after)).toEqual(before.matches('sendingEdit') ? before.context.editing : null);
  }
  if (event.type === 'CANCEL') expect(selectEditing(after)).toBeNull();
  expect(selectBusy(after)).toBe(after.matches('forking') || after.matches('sendingEdit'));
}

const coverage = new Coverage(forkMachine);
let pathCount = 0;

describe('fork machine, every edge of its graph', () => {
  const summarize = (snapshot: { value: unknown; context: unknown }) => {
    const context = snapshot.context as { editing: { draft: string } | null; failure: unknown };
    return { value: snapshot.value, text: context.editing?.draft.trim() !== '', failed: Boolean(context.failure) };
  };
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(forkMachine, { events, summarize }));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(forkMachine, path, { fakes, coverage, expectStep });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});
