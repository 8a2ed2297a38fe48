import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import {
  amountProblem,
  buyCreditsMachine,
  DEFAULT_AMOUNT,
  keepAmountCharacters,
  selectCanBuy,
  selectIdempotencyKey,
  selectProcessing,
  type BuyCreditsContext,
  type BuyCreditsEvent,
} from '../../machines/buy-credits.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const declined = Object.assign(new Error('Your card was declined.'), { status: 402 });
// No answer: the network failed, or the server was still answering the first request.
const unanswered = new TypeError('Failed to fetch');
const busy = Object.assign(new Error('Its first request is still being answered.'), { status: 409 });
const events: (BuyCreditsEvent | AnyEventObject)[] = [
  { type: 'AMOUNT_CHANGED', text: '' },
  { type: 'AMOUNT_CHANGED', text: '4.99' },
  { type: 'AMOUNT_CHANGED', text: '$ 1a2.5.0' },
  { type: 'BUY' },
  { type: 'xstate.done.actor.purchase', output: { new_balance: 85 } },
  { type: 'xstate.done.actor.purchase', output: { new_balance: 10, redirect_url: 'https://checkout.example/cs_1' } },
  { type: 'xstate.error.actor.purchase', error: declined },
  { type: 'xstate.error.actor.purchase', error: unanswered },
  { type: 'xstate.error.actor.purchase', error: busy },
];
const input = { dialogKey: 'dialog-7' };
const fakes: FakeSideEffects = { promises: ['purchase'], callbacks: {}, actions: ['purchased', 'openPaymentPage'] };

function expectStep({ event, before, after, effects, effectParams, started }: StepRecord) {
  for (const { input } of started)
    expect(input).toEqual({ amount: Number(before.context.amount), idempotencyKey: selectIdempotencyKey(before) });
  // Buy starts a purchase only with $5 or more.
  if (event.type === 'BUY') expect(after.matches('purchasing')).toBe(Number(before.context.amount) >= 5);
  if (event.type === 'xstate.done.actor.purchase') {
    const output = (event as unknown as { output: { new_balance: number; redirect_url?: string } }).output;
    expect(effects).toEqual(output.redirect_url ? ['openPaymentPage'] : ['purchased']);
    expect(effectParams).toEqual([output.redirect_url ?? output.new_balance]);
  } else expect(effects).toEqual([]);
  if (event.type === 'xstate.error.actor.purchase') {
    const { error } = event as unknown as { error: unknown };
    expect(after.context.failure).toBe(error);
    // The amount stays, so buying again is one press: the same purchase's key unless it was refused.
    expect(after.context.amount).toBe(before.context.amount);
    expect(selectIdempotencyKey(after) === selectIdempotencyKey(before)).toBe(error !== declined);
  }
  if (event.type === 'AMOUNT_CHANGED') {
    expect(after.context.failure).toBeNull();
    // Another amount is another purchase.
    expect(selectIdempotencyKey(after)).not.toBe(selectIdempotencyKey(before));
  }
  expect(selectIdempotencyKey(after)).toMatch(/^dialog-7-\d+$/);
  expect(selectProcessing(after)).toBe(!after.matches('editing'));
}

const coverage = new Coverage(buyCreditsMachine);
let pathCount = 0;

describe('buy credits machine, every edge of its graph', () => {
  // States differ by what the user sees, not by how many purchases were tried (expectStep checks that).
  const summarize = ({ value, context }: { value: unknown; context: BuyCreditsContext }) => ({
    value,
    context: { ...context, purchase: null },
  });
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(buyCreditsMachine, { events, summarize, input }));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(buyCreditsMachine, path, { fakes, coverage, expectStep, input, summarize });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('the amount field (spec §2, §5)', () => {
  it('keeps digits and one decimal point, and asks for at least $5 once something is typed', () => {
    expect(DEFAULT_AMOUNT).toBe('25.00');
    expect(keepAmountCharacters('$ 1a2.5.0')).toBe('12.50');
    expect(keepAmountCharacters('-7,5')).toBe('75');
    expect(amountProblem('')).toBeNull();
    expect(amountProblem('4.99')).toBe('minimum');
    expect(amountProblem('5')).toBeNull();
    expect(amountProblem('.')).toBeNull();
  });

  it('enables Buy only for a valid amount while nothing is being bought', () => {
    const snapshot = (amount: string) =>
      buyCreditsMachine.resolveState({
        value: 'editing',
        context: { amount, failure: null, dialogKey: 'k', purchase: 1 },
      });
    expect(['', '.', '4.99', '5', '25.00'].map((amount) => selectCanBuy(snapshot(amount)))).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
  });
});
