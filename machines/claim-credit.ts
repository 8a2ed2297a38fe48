import { and, assign, setup, type SnapshotFrom } from 'xstate';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';

// The claim-credit page's card verification form (spec §2, §4, §5, §8). Start free checks the
// fields: a card number (spaces ignored, 13 to 19 digits), an expiry date (MM/YY) and security
// code (3 or 4 digits) — which the spec's form lacks and the payment provider's check of the card
// needs — a holder, a billing address and the terms; each error clears when its field is edited. A valid form is sent; success leads to
// /dashboard, a failure shows the server's detail (or 'Registration failed.'). Where the payment
// provider's own page takes cards (Stripe, `hostedCard`), the card fields are not on this form:
// OPEN_CARD_SETUP sends the browser to that page, which comes back with the `setupSession` that
// verified the card; then the billing address and the terms are sent with it.

export interface ClaimForm {
  card_number: string;
  expiry_date: string;
  security_code: string;
  card_holder_name: string;
  billing_address: string;
  acceptTerms: boolean;
}

export type ClaimField = keyof ClaimForm;
/** i18n keys (billing namespace, claim.errors) of the spec's messages. */
export type ClaimError =
  | 'cardRequired'
  | 'cardInvalid'
  | 'expiryRequired'
  | 'expiryInvalid'
  | 'codeRequired'
  | 'codeInvalid'
  | 'holderRequired'
  | 'addressRequired'
  | 'termsRequired';

export const EMPTY_CLAIM: ClaimForm = {
  card_number: '',
  expiry_date: '',
  security_code: '',
  card_holder_name: '',
  billing_address: '',
  acceptTerms: false,
};

/** A field's error: missing, or not of its shape. */
function presentAndShaped(value: string, shape: RegExp, field: ClaimField, missing: ClaimError, misshapen: ClaimError) {
  if (value.trim() === '') return { [field]: missing };
  return shape.test(value) ? {} : { [field]: misshapen };
}

/** Spec §5's checks, in the form's order; the provider's page checks the card fields it takes (`hostedCard`). */
export function claimErrors(form: ClaimForm, hostedCard = false): Partial<Record<ClaimField, ClaimError>> {
  const digits = form.card_number.replace(/\s+/g, '');
  if (hostedCard)
    return {
      ...(form.billing_address.trim() === '' ? { billing_address: 'addressRequired' as const } : {}),
      ...(form.acceptTerms ? {} : { acceptTerms: 'termsRequired' as const }),
    };
  return {
    ...(digits === '' ? { card_number: 'cardRequired' as const } : {}),
    ...(digits !== '' && !/^\d{13,19}$/.test(digits) ? { card_number: 'cardInvalid' as const } : {}),
    ...presentAndShaped(form.expiry_date, /^(0[1-9]|1[0-2])\/\d{2}$/, 'expiry_date', 'expiryRequired', 'expiryInvalid'),
    ...presentAndShaped(form.security_code, /^\d{3,4}$/, 'security_code', 'codeRequired', 'codeInvalid'),
    ...(form.card_holder_name.trim() === '' ? { card_holder_name: 'holderRequired' as const } : {}),
    ...(form.billing_address.trim() === '' ? { billing_address: 'addressRequired' as const } : {}),
    ...(form.acceptTerms ? {} : { acceptTerms: 'termsRequired' as const }),
  };
}

export interface ClaimInput {
  /** Cards are entered on the payment provider's page, never in this form. */
  hostedCard: boolean;
  /** The setup session that page sent the browser back with: the card it verified. */
  setupSession: string | null;
}

export interface ClaimContext extends ClaimInput {
  form: ClaimForm;
  errors: Partial<Record<ClaimField, ClaimError>>;
  failure: unknown;
}

export type ClaimEvent =
  { type: 'CHANGE'; field: ClaimField; value: string | boolean } | { type: 'SUBMIT' } | { type: 'OPEN_CARD_SETUP' };

export const claimCreditMachine = setup({
  types: { context: {} as ClaimContext, events: {} as ClaimEvent, input: {} as ClaimInput },
  actors: {
    /** POST /api/auth/claim, or with the provider's setup session /api/auth/claim/card-setup. */
    claim: notProvidedPromise<unknown, ClaimForm & { setupSession: string | null }>('claim'),
    /** The provider's card page, coming back here: answers where to send the browser. */
    startCardSetup: notProvidedPromise<string>('startCardSetup'),
  },
  actions: {
    /** On to /dashboard, with the balance read again. */
    claimed: notProvidedAction('claimed'),
    /** Sends the browser to the provider's card page. */
    openCardSetup: notProvidedAction<string>('openCardSetup'),
  },
  guards: {
    valid: ({ context }) => Object.keys(claimErrors(context.form, context.hostedCard)).length === 0,
    // With the provider's page, a claim needs the card it verified.
    hasCard: ({ context }) => !context.hostedCard || context.setupSession !== null,
    hostedCard: ({ context }) => context.hostedCard,
  },
}).createMachine({
  id: 'claimCredit',
  context: ({ input }) => ({ ...input, form: EMPTY_CLAIM, errors: {}, failure: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        CHANGE: {
          actions: assign(({ context, event }) => {
            const { [event.field]: _cleared, ...errors } = context.errors;
            return { form: { ...context.form, [event.field]: event.value }, errors, failure: null };
          }),
        },
        SUBMIT: [
          {
            guard: and(['hasCard', 'valid']),
            target: 'claiming',
            actions: assign({ errors: {}, failure: null }),
          },
          {
            guard: 'hasCard',
            actions: assign(({ context }) => ({ errors: claimErrors(context.form, context.hostedCard) })),
          },
        ],
        OPEN_CARD_SETUP: { guard: 'hostedCard', target: 'openingCardSetup', actions: assign({ failure: null }) },
      },
    },
    openingCardSetup: {
      invoke: {
        id: 'startCardSetup',
        src: 'startCardSetup',
        onDone: {
          target: 'leftForCardSetup',
          actions: { type: 'openCardSetup', params: ({ event }) => event.output },
        },
        onError: { target: 'editing', actions: assign(({ event }) => ({ failure: event.error ?? 'failed' })) },
      },
    },
    /** The browser is on its way to the provider's page. */
    leftForCardSetup: {},
    claiming: {
      invoke: {
        id: 'claim',
        src: 'claim',
        input: ({ context }) => ({ ...context.form, setupSession: context.setupSession }),
        onDone: { target: 'claimed', actions: 'claimed' },
        onError: { target: 'editing', actions: assign(({ event }) => ({ failure: event.error ?? 'failed' })) },
      },
    },
    claimed: { type: 'final' },
  },
});

type Snapshot = SnapshotFrom<typeof claimCreditMachine>;

export const selectClaiming = (snapshot: Snapshot) => !snapshot.matches('editing');
