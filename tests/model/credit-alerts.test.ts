import { afterAll, describe, expect, it } from 'vitest';
import { balanceTone, creditAlertsMachine, type CreditAlertEvent } from '../../machines/credit-alerts.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

// Balances on each side of every threshold ($0.10, $1, $5).
const BALANCES = [0.0999, 0.1, 0.9999, 1, 4.9999, 5, 25];
const events: CreditAlertEvent[] = BALANCES.map((dollars) => ({ type: 'BALANCE', dollars }));
const fakes: FakeSideEffects = { promises: [], callbacks: {}, actions: ['notifyLow', 'notifyInsufficient'] };

function expectStep({ event, before, after, effects, effectParams }: StepRecord) {
  const dollars = (event as CreditAlertEvent).dollars;
  // Below $0.10 the insufficient notice comes once on the way down; below $1 the low notice once.
  const expected =
    dollars < 0.1 && !before.matches('insufficient')
      ? ['notifyInsufficient']
      : dollars < 1 && dollars >= 0.1 && before.matches('enough')
        ? ['notifyLow']
        : [];
  expect(effects).toEqual(expected);
  for (const param of effectParams) expect(param).toBe(dollars);
  if (dollars >= 5) expect(after.matches('enough')).toBe(true);
}

const coverage = new Coverage(creditAlertsMachine);
let pathCount = 0;

describe('credit alerts machine, every edge of its graph', () => {
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(creditAlertsMachine, { events }));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(creditAlertsMachine, path, { fakes, coverage, expectStep });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('the credit indicator’s colour (spec §4)', () => {
  it('is red below $0.10, yellow below $1 and green from $1', () => {
    expect(BALANCES.map(balanceTone)).toEqual([
      'danger',
      'warning',
      'warning',
      'success',
      'success',
      'success',
      'success',
    ]);
  });
});
