import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import {
  cardDialogMachine,
  selectFailure,
  selectIsOpen,
  selectIsSaving,
  type CardDialogEvent,
} from '../../machines/card-dialog.ts';
import type { PaymentInput } from '../../machines/onboarding.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const payment: PaymentInput = {
  card_number: '4242 4242 4242 4242',
  expiry_date: '12/35',
  security_code: '123',
  cardholder_name: 'Ada',
  same_billing_address: true,
};
const declined = Object.assign(new Error('Your card was declined.'), { status: 402 });
const events: (CardDialogEvent | AnyEventObject)[] = [
  { type: 'OPEN' },
  { type: 'CLOSE' },
  { type: 'SAVE', payment },
  { type: 'xstate.done.actor.saveCard' },
  { type: 'xstate.error.actor.saveCard', error: declined },
];
const fakes: FakeSideEffects = { promises: ['saveCard'], callbacks: {}, actions: ['saved'] };

function expectStep({ event, before, after, effects, started }: StepRecord) {
  // Save hands the card as typed to the provider.
  for (const { input } of started) expect(input).toEqual(payment);
  expect(effects).toEqual(event.type === 'xstate.done.actor.saveCard' ? ['saved'] : []);
  if (event.type === 'xstate.error.actor.saveCard') {
    // A refusal keeps the dialog open with the reason: the typed card is the dialog's, not lost.
    expect(selectIsOpen(after)).toBe(true);
    expect(selectFailure(after)).toBe(declined);
  }
  if (event.type === 'OPEN') expect(selectFailure(after)).toBeNull();
  expect(selectIsSaving(after)).toBe(after.matches('saving'));
  if (before.matches('saving')) expect(event.type).not.toBe('CLOSE');
}

const coverage = new Coverage(cardDialogMachine);
let pathCount = 0;

describe('card dialog machine, every edge of its graph', () => {
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(cardDialogMachine, { events }));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(cardDialogMachine, path, { fakes, coverage, expectStep });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  it('ignores Close while the card is being saved', () => {
    expect(cardDialogMachine.resolveState({ value: 'saving', context: { failure: null } }).can({ type: 'CLOSE' })).toBe(
      false,
    );
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});
