import { assign, setup, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';

// Registration onboarding (spec §2, §4). Step 1 'Account Information': the country, pre-filled
// from the saved form data, else from detection; 'Agree & continue' saves it and moves on even
// when saving fails. A saved country means step 1 was agreed: a reload opens step 2 again.
// Step 2 'Payment Information Verification': the contact information dialog, then (only once contact information is saved) the card dialog; a failed save shows the Error
// dialog; Back returns to step 1; Start Free activates the account and shows the dashboard, or
// lists the missing steps in the 'Complete Required Steps' dialog. Where the payment provider's own
// page takes cards (Stripe, `hostedCard`), the card button opens that page instead of the card
// dialog, and the page back (`setupSession`) has the card it took kept, then shows step 2.

export type ContactInformation = components['schemas']['ContactInformation'];
export type ContactInput = components['schemas']['ContactInformationInput'];
export type PaymentInformation = components['schemas']['PaymentInformation'];
export type PaymentInput = Omit<components['schemas']['PaymentInformationInput'], 'contact_information_id'>;
export type OnboardingStep = components['schemas']['OnboardingStep'];
type StartFreeResult = components['schemas']['StartFreeResult'];

/** What was saved before (or detected): the page starts from it. */
export interface OnboardingStart {
  countryId: number | null;
  contact: ContactInformation | null;
  /** Step 1 was agreed to before (its country is saved). */
  agreed: boolean;
}

/** Which save failed, for the Error dialog's fallback text (the server's detail comes first). */
export type FailedSave = 'contact' | 'payment' | 'start';

export interface OnboardingInput {
  /** Cards are entered on the payment provider's page, never in Atelier's card dialog. */
  hostedCard: boolean;
  /** The setup session that page sent the browser back with, once. */
  setupSession: string | null;
}

export interface OnboardingContext extends OnboardingInput {
  countryId: number | null;
  contact: ContactInformation | null;
  failure: { save: FailedSave; error: unknown } | null;
  missingSteps: OnboardingStep[];
}

export type OnboardingEvent =
  | { type: 'CHOOSE_COUNTRY'; countryId: number | null }
  | { type: 'AGREE' }
  | { type: 'BACK' }
  | { type: 'EDIT_CONTACT' }
  | { type: 'EDIT_PAYMENT' }
  | { type: 'SAVE_CONTACT'; contact: ContactInput }
  | { type: 'SAVE_PAYMENT'; payment: PaymentInput }
  | { type: 'CLOSE' }
  | { type: 'START_FREE' };

/** What was loaded starts the page, whichever step it opens. */
const begin = {
  type: 'begin',
  params: ({ event }: { event: DoneActorEvent<OnboardingStart> }) => event.output,
} as const;

const failed =
  (save: FailedSave) =>
  ({ event }: { event: ErrorActorEvent }) => ({ failure: { save, error: event.error } });

export const onboardingMachine = setup({
  types: { context: {} as OnboardingContext, events: {} as OnboardingEvent, input: {} as OnboardingInput },
  actors: {
    /** Saved form data, else the detected country. */
    loadStart: notProvidedPromise<OnboardingStart>('loadStart'),
    saveCountry: notProvidedPromise<void, number>('saveCountry'),
    saveContact: notProvidedPromise<ContactInformation, ContactInput>('saveContact'),
    savePayment: notProvidedPromise<PaymentInformation, PaymentInput & { contact_information_id: string }>(
      'savePayment',
    ),
    startFree: notProvidedPromise<StartFreeResult>('startFree'),
    /** The provider's card page: answers where to send the browser. */
    startCardSetup: notProvidedPromise<string>('startCardSetup'),
    /** Keeps the card the provider's page took in `setup_session_id`. */
    saveCardSetup: notProvidedPromise<PaymentInformation, { contact_information_id: string; setup_session_id: string }>(
      'saveCardSetup',
    ),
  },
  actions: {
    /** The account is active: on to /dashboard (and a fresh read of the user). */
    showDashboard: notProvidedAction('showDashboard'),
    /** Sends the browser to the provider's card page. */
    openCardSetup: notProvidedAction<string>('openCardSetup'),
    /** The page back's setup session is used: it leaves the address (a reload does not send it again). */
    leaveCardSetup: notProvidedAction('leaveCardSetup'),
    forgetSetupSession: assign({ setupSession: null }),
    begin: assign((_, start: OnboardingStart) => ({ countryId: start.countryId, contact: start.contact })),
    chooseCountry: assign((_, countryId: number | null) => ({ countryId })),
    keepContact: assign(({ context }, contact: ContactInformation) => ({
      // The saved payment method stays with the contact information it belongs to.
      contact: {
        ...contact,
        payment_information: contact.payment_information ?? context.contact?.payment_information ?? null,
      },
    })),
    keepPayment: assign(({ context }, payment: PaymentInformation) => ({
      contact: context.contact && { ...context.contact, payment_information: payment },
    })),
    forgetFailure: assign({ failure: null }),
    keepMissingSteps: assign((_, result: StartFreeResult) => ({ missingSteps: result.missing_steps })),
  },
  guards: {
    hasCountry: ({ context }) => context.countryId !== null,
    hasContact: ({ context }) => context.contact !== null,
    started: (_, result: StartFreeResult) => result.success,
    agreedBefore: (_, start: OnboardingStart) => start.agreed,
    backFromCardSetup: ({ context }, start: OnboardingStart) => context.setupSession !== null && start.contact !== null,
    hostedCard: ({ context }) => context.contact !== null && context.hostedCard,
  },
}).createMachine({
  id: 'onboarding',
  context: ({ input }) => ({
    hostedCard: input.hostedCard,
    setupSession: input.setupSession,
    countryId: null,
    contact: null,
    failure: null,
    missingSteps: [],
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadStart',
        src: 'loadStart',
        onDone: [
          {
            guard: {
              type: 'backFromCardSetup',
              params: ({ event }: { event: DoneActorEvent<OnboardingStart> }) => event.output,
            },
            target: 'payment.keepingCardSetup',
            actions: begin,
          },
          {
            guard: {
              type: 'agreedBefore',
              params: ({ event }: { event: DoneActorEvent<OnboardingStart> }) => event.output,
            },
            target: 'payment',
            actions: begin,
          },
          {
            target: 'account',
            actions: begin,
          },
        ],
        // Nothing to pre-fill: the user chooses.
        onError: 'account',
      },
    },
    account: {
      initial: 'choosing',
      states: {
        choosing: {
          on: {
            CHOOSE_COUNTRY: { actions: { type: 'chooseCountry', params: ({ event }) => event.countryId } },
            AGREE: { guard: 'hasCountry', target: 'saving' },
          },
        },
        saving: {
          invoke: {
            id: 'saveCountry',
            src: 'saveCountry',
            input: ({ context }) => context.countryId ?? 0,
            // Spec §4: it moves on even if saving fails.
            onDone: '#onboarding.payment',
            onError: '#onboarding.payment',
          },
        },
      },
    },
    payment: {
      initial: 'overview',
      states: {
        overview: {
          on: {
            EDIT_CONTACT: 'contactDialog',
            EDIT_PAYMENT: [
              { guard: 'hostedCard', target: 'openingCardSetup' },
              { guard: 'hasContact', target: 'paymentDialog' },
            ],
            BACK: '#onboarding.account',
            START_FREE: 'starting',
          },
        },
        contactDialog: {
          initial: 'editing',
          states: {
            editing: { on: { SAVE_CONTACT: 'saving', CLOSE: '#onboarding.payment.overview' } },
            saving: {
              invoke: {
                id: 'saveContact',
                src: 'saveContact',
                input: ({ event }) => (event as Extract<OnboardingEvent, { type: 'SAVE_CONTACT' }>).contact,
                onDone: {
                  target: '#onboarding.payment.overview',
                  actions: {
                    type: 'keepContact',
                    params: ({ event }: { event: DoneActorEvent<ContactInformation> }) => event.output,
                  },
                },
                onError: { target: '#onboarding.payment.failed', actions: assign(failed('contact')) },
              },
            },
          },
        },
        paymentDialog: {
          initial: 'editing',
          states: {
            editing: { on: { SAVE_PAYMENT: 'saving', CLOSE: '#onboarding.payment.overview' } },
            saving: {
              invoke: {
                id: 'savePayment',
                src: 'savePayment',
                input: ({ context, event }) => ({
                  ...(event as Extract<OnboardingEvent, { type: 'SAVE_PAYMENT' }>).payment,
                  contact_information_id: context.contact?.id ?? '',
                }),
                onDone: {
                  target: '#onboarding.payment.overview',
                  actions: {
                    type: 'keepPayment',
                    params: ({ event }: { event: DoneActorEvent<PaymentInformation> }) => event.output,
                  },
                },
                onError: { target: '#onboarding.payment.failed', actions: assign(failed('payment')) },
              },
            },
          },
        },
        openingCardSetup: {
          invoke: {
            id: 'startCardSetup',
            src: 'startCardSetup',
            onDone: {
              target: 'leftForCardSetup',
              actions: {
                type: 'openCardSetup',
                params: ({ event }: { event: DoneActorEvent<string> }) => event.output,
              },
            },
            onError: { target: 'failed', actions: assign(failed('payment')) },
          },
        },
        /** The browser is on its way to the provider's page. */
        leftForCardSetup: {},
        keepingCardSetup: {
          entry: 'leaveCardSetup',
          invoke: {
            id: 'saveCardSetup',
            src: 'saveCardSetup',
            input: ({ context }) => ({
              contact_information_id: context.contact?.id ?? '',
              setup_session_id: context.setupSession ?? '',
            }),
            onDone: {
              target: 'overview',
              actions: [
                'forgetSetupSession',
                {
                  type: 'keepPayment',
                  params: ({ event }: { event: DoneActorEvent<PaymentInformation> }) => event.output,
                },
              ],
            },
            onError: { target: 'failed', actions: ['forgetSetupSession', assign(failed('payment'))] },
          },
        },
        starting: {
          invoke: {
            id: 'startFree',
            src: 'startFree',
            onDone: [
              {
                guard: {
                  type: 'started',
                  params: ({ event }: { event: DoneActorEvent<StartFreeResult> }) => event.output,
                },
                target: '#onboarding.active',
              },
              {
                target: 'missingSteps',
                actions: {
                  type: 'keepMissingSteps',
                  params: ({ event }: { event: DoneActorEvent<StartFreeResult> }) => event.output,
                },
              },
            ],
            onError: { target: 'failed', actions: assign(failed('start')) },
          },
        },
        /** The Error dialog, with OK. */
        failed: { on: { CLOSE: { target: 'overview', actions: 'forgetFailure' } } },
        /** 'Complete Required Steps', with 'Got it'. */
        missingSteps: { on: { CLOSE: 'overview' } },
      },
    },
    active: { type: 'final', entry: 'showDashboard' },
  },
});

export type OnboardingSnapshot = SnapshotFrom<typeof onboardingMachine>;

export const selectStep = (snapshot: OnboardingSnapshot): 'loading' | 'account' | 'payment' =>
  snapshot.matches('loading') ? 'loading' : snapshot.matches('account') ? 'account' : 'payment';
export const selectCanAgree = (snapshot: OnboardingSnapshot) =>
  snapshot.matches({ account: 'choosing' }) && snapshot.context.countryId !== null;
export const selectIsSaving = (snapshot: OnboardingSnapshot) =>
  snapshot.matches({ account: 'saving' }) ||
  snapshot.matches({ payment: { contactDialog: 'saving' } }) ||
  snapshot.matches({ payment: { paymentDialog: 'saving' } }) ||
  snapshot.matches({ payment: 'openingCardSetup' }) ||
  snapshot.matches({ payment: 'leftForCardSetup' }) ||
  snapshot.matches({ payment: 'keepingCardSetup' }) ||
  snapshot.matches({ payment: 'starting' });
export const selectIsKeepingCardSetup = (snapshot: OnboardingSnapshot) =>
  snapshot.matches({ payment: 'keepingCardSetup' });
export const selectOpenDialog = (
  snapshot: OnboardingSnapshot,
): 'contact' | 'payment' | 'error' | 'missingSteps' | null => {
  if (snapshot.matches({ payment: 'contactDialog' })) return 'contact';
  if (snapshot.matches({ payment: 'paymentDialog' })) return 'payment';
  if (snapshot.matches({ payment: 'failed' })) return 'error';
  if (snapshot.matches({ payment: 'missingSteps' })) return 'missingSteps';
  return null;
};
