import { assign, setup, type SnapshotFrom } from 'xstate';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';
import type { PaymentInput } from './onboarding.ts';

// The profile's "Add credit or debit card" dialog (spec §2), for an account past onboarding that
// skipped the card or wants another: Save hands the card to the payment provider through the
// server; a refusal (a declined card, a wrong field) is shown in the dialog, nothing typed is lost.

export interface CardDialogContext {
  /** Why the last save failed (shown with the server's detail). */
  failure: unknown;
}

export type CardDialogEvent = { type: 'OPEN' } | { type: 'CLOSE' } | { type: 'SAVE'; payment: PaymentInput };

export const cardDialogMachine = setup({
  types: { context: {} as CardDialogContext, events: {} as CardDialogEvent },
  actors: {
    /** POST …/onboarding/save-payment-information with the saved contact's id. */
    saveCard: notProvidedPromise<void, PaymentInput>('saveCard'),
  },
  actions: {
    /** The card is saved: refresh what shows it (and the balance, for the first card's free credit). */
    saved: notProvidedAction('saved'),
  },
}).createMachine({
  id: 'cardDialog',
  context: { failure: null },
  initial: 'closed',
  states: {
    closed: { on: { OPEN: { target: 'editing', actions: assign({ failure: null }) } } },
    editing: {
      on: {
        CLOSE: 'closed',
        SAVE: 'saving',
      },
    },
    saving: {
      invoke: {
        id: 'saveCard',
        src: 'saveCard',
        input: ({ event }) => (event as Extract<CardDialogEvent, { type: 'SAVE' }>).payment,
        onDone: { target: 'closed', actions: 'saved' },
        onError: { target: 'editing', actions: assign(({ event }) => ({ failure: event.error ?? 'failed' })) },
      },
    },
  },
});

type Snapshot = SnapshotFrom<typeof cardDialogMachine>;

export const selectIsOpen = (snapshot: Snapshot) => !snapshot.matches('closed');
export const selectIsSaving = (snapshot: Snapshot) => snapshot.matches('saving');
export const selectFailure = (snapshot: Snapshot) => snapshot.context.failure;
