import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type AnyEventObject } from 'xstate';
import { copyLinkMachine, selectCopied, type CopyLinkEvent } from '../../machines/copy-link.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const LINK = 'https://atelier.example/ada';
const input = { text: LINK };
const reset = { type: 'xstate.after.copiedReset.copyLink.copied' };
const events: (CopyLinkEvent | AnyEventObject)[] = [
  { type: 'COPY' },
  { type: 'xstate.done.actor.writeClipboard' },
  { type: 'xstate.error.actor.writeClipboard', error: new DOMException('Write permission denied.', 'NotAllowedError') },
  reset,
];
const fakes: FakeSideEffects = { promises: ['writeClipboard'], callbacks: {}, actions: [] };

function expectStep({ event, before, after, started }: StepRecord) {
  // Every press copies, also while 'Copied!' still shows.
  if (event.type === 'COPY') expect(started).toMatchObject([{ src: 'writeClipboard', input: LINK }]);
  // 'Copied!' only once the clipboard took the link, and until the 2 seconds are over.
  expect(selectCopied(after)).toBe(event.type === 'xstate.done.actor.writeClipboard');
  if (event.type === reset.type) expect(selectCopied(before)).toBe(true);
}

const coverage = new Coverage(copyLinkMachine);
let pathCount = 0;

describe('copy link machine, every edge of its graph', () => {
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(copyLinkMachine, { events, input }));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(copyLinkMachine, path, { fakes, coverage, expectStep, input });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('copy link machine, on a simulated clock', () => {
  it('reads Copied! for 2 seconds after the last press', async () => {
    const clock = new SimulatedClock();
    const actor = createActor(
      copyLinkMachine.provide({ actors: { writeClipboard: fromPromise<void, string>(async () => {}) } }),
      { clock, input },
    ).start();
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'COPY' });
    await settle();
    expect(selectCopied(actor.getSnapshot())).toBe(true);
    clock.increment(1500);
    // Pressed again at 1.5 s: the 2 seconds start over.
    actor.send({ type: 'COPY' });
    await settle();
    clock.increment(1999);
    expect(selectCopied(actor.getSnapshot())).toBe(true);
    clock.increment(1);
    expect(selectCopied(actor.getSnapshot())).toBe(false);
    actor.stop();
  });
});
