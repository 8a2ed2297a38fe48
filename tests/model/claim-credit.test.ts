import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import {
  claimCreditMachine,
  claimErrors,
  EMPTY_CLAIM,
  type ClaimEvent,
  type ClaimInput,
} from '../../machines/claim-credit.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const refused = Object.assign(new Error('This card has already been used to claim free credit.'), { status: 409 });
const events: (ClaimEvent | AnyEventObject)[] = [
  { type: 'CHANGE', field: 'card_number', value: '4242 4242 4242 4242' },
  { type: 'CHANGE', field: 'expiry_date', value: '12/34' },
  { type: 'CHANGE', field: 'security_code', value: '123' },
  { type: 'CHANGE', field: 'card_holder_name', value: 'Ada Lovelace' },
  { type: 'CHANGE', field: 'billing_address', value: 'Hauptstraße 1' },
  { type: 'CHANGE', field: 'acceptTerms', value: true },
  { type: 'SUBMIT' },
  { type: 'xstate.done.actor.claim', output: { success: true } },
  { type: 'xstate.error.actor.claim', error: refused },
];
const CARD_PAGE = 'https://checkout.stripe.com/c/pay/cs_test_1';
/** With Stripe's page the form has no card fields: only the address, the terms, and the way to that page. */
const hostedEvents: (ClaimEvent | AnyEventObject)[] = [
  ...events.filter((event) => event.type !== 'CHANGE' || ['billing_address', 'acceptTerms'].includes(event.field)),
  { type: 'OPEN_CARD_SETUP' },
  { type: 'xstate.done.actor.startCardSetup', output: CARD_PAGE },
  { type: 'xstate.error.actor.startCardSetup', error: new TypeError('Failed to fetch') },
];
const fakes: FakeSideEffects = {
  promises: ['claim', 'startCardSetup'],
  callbacks: {},
  actions: ['claimed', 'openCardSetup'],
};

function expectStep({ event, before, after, effects, started }: StepRecord) {
  const { hostedCard, setupSession } = before.context as ClaimInput;
  const errors = claimErrors(before.context.form, hostedCard);
  const valid = Object.keys(errors).length === 0;
  // With Stripe's page, nothing is claimed before that page verified a card.
  const ready = valid && (!hostedCard || setupSession !== null);
  if (event.type === 'SUBMIT') {
    expect(after.matches('claiming')).toBe(ready);
    // An invalid form shows every error at once and sends nothing.
    if (!valid && (!hostedCard || setupSession)) expect(after.context.errors).toEqual(errors);
    expect(started.map((s) => s.input)).toEqual(ready ? [{ ...before.context.form, setupSession }] : []);
  }
  if (event.type === 'OPEN_CARD_SETUP') expect(started.map((s) => s.src)).toEqual(hostedCard ? ['startCardSetup'] : []);
  if (event.type === 'CHANGE') {
    const field = (event as Extract<ClaimEvent, { type: 'CHANGE' }>).field;
    expect(after.context.errors[field]).toBeUndefined();
  }
  expect(effects).toEqual(
    event.type === 'xstate.done.actor.claim'
      ? ['claimed']
      : event.type === 'xstate.done.actor.startCardSetup'
        ? ['openCardSetup']
        : [],
  );
  if (event.type === 'xstate.error.actor.claim') expect(after.context.failure).toBe(refused);
}

const coverage = new Coverage(claimCreditMachine);
let pathCount = 0;

describe('claim credit machine, every edge of its graph', () => {
  // Fields are told apart by whether they are filled: enough to reach every state and edge.
  const summarize = (snapshot: { value: unknown; context: unknown }) => {
    const context = snapshot.context as { form: Record<string, unknown>; errors: object; failure: unknown };
    return {
      value: snapshot.value,
      filled: Object.entries(context.form).map(([field, value]) => [field, Boolean(value)]),
      errors: Object.keys(context.errors).sort(),
      failed: Boolean(context.failure),
    };
  };
  // The test provider's card fields; Stripe's page; the page back from it with the card it verified.
  const inputs: [ClaimInput, (ClaimEvent | AnyEventObject)[]][] = [
    [{ hostedCard: false, setupSession: null }, events],
    [{ hostedCard: true, setupSession: null }, hostedEvents],
    [{ hostedCard: true, setupSession: 'cs_test_1' }, hostedEvents],
  ];
  for (const [input, modelEvents] of inputs)
    describe(`card ${input.hostedCard ? "on Stripe's page" : 'fields'}${input.setupSession ? ', back from it' : ''}`, () => {
      const paths = withoutPrefixPaths(
        pathsThroughEveryEdge(claimCreditMachine, { events: modelEvents, summarize, input }),
      );
      pathCount += paths.length;
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        const reached = await runPath(claimCreditMachine, path, { fakes, coverage, expectStep, input });
        expect(reached.value).toEqual(path.state.value);
      });
    });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('the card verification checks (spec §5)', () => {
  it('asks for a card number of 13 to 19 digits (spaces ignored), its expiry and code, a holder, an address and the terms', () => {
    expect(claimErrors(EMPTY_CLAIM)).toEqual({
      card_number: 'cardRequired',
      expiry_date: 'expiryRequired',
      security_code: 'codeRequired',
      card_holder_name: 'holderRequired',
      billing_address: 'addressRequired',
      acceptTerms: 'termsRequired',
    });
    const filled = {
      card_number: '',
      expiry_date: '12/34',
      security_code: '123',
      card_holder_name: 'A',
      billing_address: 'B',
      acceptTerms: true,
    };
    expect(claimErrors({ ...filled, card_number: '4242 4242 4242' })).toEqual({ card_number: 'cardInvalid' });
    expect(claimErrors({ ...filled, card_number: '4242 4242 4242 4' })).toEqual({});
    expect(claimErrors({ ...filled, card_number: '4242 4242 4242 4242 4242' })).toEqual({ card_number: 'cardInvalid' });
    expect(claimErrors({ ...filled, card_number: '4242-4242-4242-4242' })).toEqual({ card_number: 'cardInvalid' });
    const card = { ...filled, card_number: '4242 4242 4242 4242' };
    for (const expiry_date of ['13/30', '1/30', '12/2030', ' 12/30'])
      expect(claimErrors({ ...card, expiry_date })).toEqual({ expiry_date: 'expiryInvalid' });
    for (const security_code of ['12', '12345', '12a'])
      expect(claimErrors({ ...card, security_code })).toEqual({ security_code: 'codeInvalid' });
    expect(claimErrors({ ...card, security_code: '1234' })).toEqual({});
  });
});
