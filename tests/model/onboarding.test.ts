import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import {
  onboardingMachine,
  selectCanAgree,
  selectOpenDialog,
  selectStep,
  type ContactInformation,
  type OnboardingEvent,
  type OnboardingInput,
  type PaymentInformation,
} from '../../machines/onboarding.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const GERMANY = 276;
const CARD_PAGE = 'https://checkout.stripe.com/c/pay/cs_test_1';
const SETUP_SESSION = 'cs_test_1';
const contactInput = {
  legal_name: 'Ada Lovelace',
  street_address: 'Hauptstraße 1',
  city: 'Berlin',
  province: 'Berlin',
  postal_code: '10115',
};
const contact: ContactInformation = {
  id: 'contact-1',
  profile_type: 'Organization',
  organization_name: 'Acme',
  apt_suite: null,
  tax_id: null,
  vat_number: null,
  payment_information: null,
  ...contactInput,
};
const payment: PaymentInformation = {
  id: 'payment-1',
  contact_information_id: 'contact-1',
  card_last4: '4242',
  card_brand: 'visa',
  expiry_date: '12/35',
  cardholder_name: 'Ada Lovelace',
  same_billing_address: true,
  billing_country: 'Germany',
  billing_street_address: 'Hauptstraße 1',
  billing_apt_suite: null,
  billing_city: 'Berlin',
  billing_province: 'Berlin',
  billing_postal_code: '10115',
};
const paymentInput = {
  card_number: '4242 4242 4242 4242',
  expiry_date: '12/35',
  security_code: '737',
  cardholder_name: 'Ada Lovelace',
  same_billing_address: true,
};

const events: (OnboardingEvent | AnyEventObject)[] = [
  { type: 'xstate.done.actor.loadStart', output: { countryId: GERMANY, contact, agreed: true } },
  { type: 'xstate.done.actor.loadStart', output: { countryId: GERMANY, contact: null, agreed: false } },
  { type: 'xstate.done.actor.loadStart', output: { countryId: null, contact: null, agreed: false } },
  { type: 'xstate.error.actor.loadStart', error: new TypeError('Failed to fetch') },
  { type: 'CHOOSE_COUNTRY', countryId: GERMANY },
  { type: 'CHOOSE_COUNTRY', countryId: null },
  { type: 'AGREE' },
  { type: 'xstate.done.actor.saveCountry' },
  { type: 'xstate.error.actor.saveCountry', error: new TypeError('Failed to fetch') },
  { type: 'BACK' },
  { type: 'EDIT_CONTACT' },
  { type: 'SAVE_CONTACT', contact: contactInput },
  { type: 'xstate.done.actor.saveContact', output: contact },
  { type: 'xstate.error.actor.saveContact', error: new Error('Organization name is required.') },
  { type: 'EDIT_PAYMENT' },
  { type: 'SAVE_PAYMENT', payment: paymentInput },
  { type: 'xstate.done.actor.savePayment', output: payment },
  { type: 'xstate.error.actor.savePayment', error: new Error('The card has expired.') },
  { type: 'CLOSE' },
  { type: 'START_FREE' },
  {
    type: 'xstate.done.actor.startFree',
    output: { success: true, message: 'Your account is active.', missing_steps: [] },
  },
  {
    type: 'xstate.done.actor.startFree',
    output: { success: false, message: 'Please complete the required steps first.', missing_steps: ['country'] },
  },
  { type: 'xstate.error.actor.startFree', error: new TypeError('Failed to fetch') },
  { type: 'xstate.done.actor.startCardSetup', output: CARD_PAGE },
  { type: 'xstate.error.actor.startCardSetup', error: new TypeError('Failed to fetch') },
  { type: 'xstate.done.actor.saveCardSetup', output: payment },
  { type: 'xstate.error.actor.saveCardSetup', error: new Error('Stripe has no card set up in this session.') },
];

const fakes: FakeSideEffects = {
  promises: ['loadStart', 'saveCountry', 'saveContact', 'savePayment', 'startFree', 'startCardSetup', 'saveCardSetup'],
  callbacks: {},
  actions: ['showDashboard', 'openCardSetup', 'leaveCardSetup'],
};

function expectStep({ event, before, after, started, effects }: StepRecord) {
  for (const { src, input } of started) {
    // What is saved is what the user chose or typed; a card goes with the saved contact information.
    if (src === 'saveCountry') expect(input).toBe(before.context.countryId);
    if (src === 'saveContact') expect(input).toEqual(contactInput);
    if (src === 'savePayment')
      expect(input).toEqual({ ...paymentInput, contact_information_id: before.context.contact?.id });
    // The card Stripe's page took is kept under the saved contact, by the session the page back named.
    if (src === 'saveCardSetup')
      expect(input).toEqual({ contact_information_id: contact.id, setup_session_id: SETUP_SESSION });
  }
  // With Stripe's page, the card button opens it, never Atelier's card dialog.
  if (event.type === 'EDIT_PAYMENT') {
    expect(selectOpenDialog(after)).toBe(before.context.hostedCard ? null : 'payment');
    expect(started.map((s) => s.src)).toEqual(before.context.hostedCard ? ['startCardSetup'] : []);
  }
  // Agree needs a country; the card dialog needs saved contact information.
  if (event.type === 'AGREE') expect(selectCanAgree(before)).toBe(true);
  if (event.type === 'EDIT_PAYMENT') expect(before.context.contact).not.toBeNull();
  // A country saved before (step 1 agreed) opens step 2; otherwise step 1 comes first.
  if (event.type === 'xstate.done.actor.loadStart') {
    const { agreed, contact: saved } = (event as unknown as { output: { agreed: boolean; contact: unknown } }).output;
    // Back from Stripe's page (with contact information saved): its card is kept, once, and the address forgets it.
    const back = before.context.setupSession !== null && saved !== null;
    expect(selectStep(after)).toBe(agreed || back ? 'payment' : 'account');
    expect(effects).toEqual(back ? ['leaveCardSetup'] : []);
    expect(started.map((s) => s.src)).toEqual(back ? ['saveCardSetup'] : []);
  }
  if (event.type.endsWith('.actor.saveCardSetup')) expect(after.context.setupSession).toBeNull();
  if (event.type === 'xstate.done.actor.saveCardSetup')
    expect(after.context.contact?.payment_information).toEqual(payment);
  // Saving the country moves on to step 2 whether or not it worked.
  if (event.type.endsWith('.actor.saveCountry')) expect(selectStep(after)).toBe('payment');
  if (event.type === 'xstate.done.actor.savePayment')
    expect(after.context.contact?.payment_information).toEqual(payment);
  // A saved contact keeps the card already saved with it.
  if (event.type === 'xstate.done.actor.saveContact')
    expect(after.context.contact?.payment_information).toEqual(before.context.contact?.payment_information ?? null);
  if (event.type.startsWith('xstate.error.actor.save') && event.type !== 'xstate.error.actor.saveCountry')
    expect(selectOpenDialog(after)).toBe('error');
  if (event.type === 'xstate.done.actor.startFree') {
    const success = (event as unknown as { output: { success: boolean } }).output.success;
    expect(effects).toEqual(success ? ['showDashboard'] : []);
    if (!success) expect(selectOpenDialog(after)).toBe('missingSteps');
  } else if (event.type === 'xstate.done.actor.startCardSetup') expect(effects).toEqual(['openCardSetup']);
  else if (event.type !== 'xstate.done.actor.loadStart') expect(effects).toEqual([]);
}

/** The test provider's card dialog; Stripe's page; and the page back from Stripe's page. */
const inputs: OnboardingInput[] = [
  { hostedCard: false, setupSession: null },
  { hostedCard: true, setupSession: null },
  { hostedCard: true, setupSession: SETUP_SESSION },
];

const coverage = new Coverage(onboardingMachine);
let pathCount = 0;

describe('onboarding machine, every edge of its graph', () => {
  for (const input of inputs)
    describe(`card ${input.hostedCard ? "on Stripe's page" : 'dialog'}${input.setupSession ? ', back from it' : ''}`, () => {
      const paths = withoutPrefixPaths(pathsThroughEveryEdge(onboardingMachine, { events, input }));
      pathCount += paths.length;
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        const reached = await runPath(onboardingMachine, path, { fakes, coverage, expectStep, input });
        expect(reached.value).toEqual(path.state.value);
      });
    });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});
