import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyEventObject } from 'xstate';
import { referralMachine, type ClickReport } from '../../machines/referral.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const failure = new TypeError('Failed to fetch');
const unknownCode = Object.assign(new Error('Unknown referral code'), { status: 404 });
const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.reportClick', output: { success: true } },
  { type: 'xstate.error.actor.reportClick', error: failure },
  { type: 'xstate.error.actor.reportClick', error: unknownCode },
];
const fakes: FakeSideEffects = {
  promises: ['reportClick'],
  callbacks: {},
  actions: ['keepCode', 'logFailure', 'goHome'],
};

const coverage = new Coverage(referralMachine);
let pathCount = 0;

describe('referral machine, every edge of its graph', () => {
  for (const previous of [null, 'OTHER', 'partner-1']) {
    const input = { code: 'partner-1', previous };
    describe(`with ${previous ?? 'no'} code kept before`, () => {
      const paths = withoutPrefixPaths(pathsThroughEveryEdge(referralMachine, { events, input }));
      pathCount += paths.length;
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        const expectStep = ({ event, effects, effectParams, after }: StepRecord) => {
          const error = (event as { error?: unknown }).error;
          // A code no link has keeps nothing and goes nowhere: the page is not found.
          if (error === unknownCode) {
            expect(effects).toEqual([]);
            expect(after.matches('unknown')).toBe(true);
            return;
          }
          // Otherwise, whatever the report's fate, the code is kept and the visitor goes home; a failure is logged first.
          expect(effects).toEqual(error ? ['logFailure', 'keepCode', 'goHome'] : ['keepCode', 'goHome']);
          if (error) expect(effectParams[0]).toBe(failure);
          expect(effectParams.at(-2)).toBe('partner-1');
        };
        const reached = await runPath(referralMachine, path, { fakes, input, coverage, expectStep });
        expect(reached.value).toEqual(path.state.value);
        expect(reached.status).toBe('done');
      });
    });
  }

  it('keeps the code and reports the click as unique only when the code is new to this browser', async () => {
    const reports: ClickReport[] = [];
    const kept: string[] = [];
    for (const previous of [null, 'OTHER', 'partner-1']) {
      const actor = createActor(
        referralMachine.provide({
          actors: { reportClick: fromPromise(async ({ input }) => void reports.push(input)) },
          actions: { keepCode: (_, code) => void kept.push(code), logFailure: () => {}, goHome: () => {} },
        }),
        { input: { code: 'partner-1', previous } },
      ).start();
      await waitFor(actor, (snapshot) => snapshot.status === 'done');
    }
    expect(kept).toEqual(['partner-1', 'partner-1', 'partner-1']);
    expect(reports).toEqual([
      { code: 'partner-1', unique: true },
      { code: 'partner-1', unique: true },
      { code: 'partner-1', unique: false },
    ]);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});
