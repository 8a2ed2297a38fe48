import { assign, setup, type SnapshotFrom } from 'xstate';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';

// The Buy Credits dialog (spec §2, §5, §8). The amount keeps digits and one decimal point
// (default 25.00); Buy is enabled when it is at least $5 and nothing is being bought. A purchase
// answers the new balance, or the payment provider's page to continue on; a failure shows the
// server's detail (or 'Failed to purchase credits') and the user may change the amount and retry.

export const DEFAULT_AMOUNT = '25.00';
/** Dollars. */
export const MINIMUM_AMOUNT = 5;

/**
 * Keeps digits and the decimal point (spec §2); a second point is dropped too, so what stays is
 * always a number.
 */
export function keepAmountCharacters(text: string): string {
  const kept = text.replace(/[^\d.]/g, '');
  const point = kept.indexOf('.');
  return point < 0 ? kept : kept.slice(0, point + 1) + kept.slice(point + 1).replaceAll('.', '');
}

const dollarsOf = (amount: string) => (amount === '' || amount === '.' ? null : Number(amount));

/** 'minimum' once an amount under $5 is typed; nothing while the field is empty (Buy is disabled then). */
export function amountProblem(amount: string): 'minimum' | null {
  const dollars = dollarsOf(amount);
  return dollars !== null && dollars < MINIMUM_AMOUNT ? 'minimum' : null;
}

export interface PurchaseResult {
  new_balance: number;
  redirect_url?: string | null;
}

export interface BuyCreditsContext {
  amount: string;
  /** Why the last purchase failed (shown with the server's detail). */
  failure: unknown;
}

export type BuyCreditsEvent = { type: 'AMOUNT_CHANGED'; text: string } | { type: 'BUY' };

const canBuy = (amount: string) => dollarsOf(amount) !== null && amountProblem(amount) === null;

export const buyCreditsMachine = setup({
  types: { context: {} as BuyCreditsContext, events: {} as BuyCreditsEvent },
  actors: {
    /** POST /api/auth/purchase-credits with the amount in dollars. */
    purchase: notProvidedPromise<PurchaseResult, number>('purchase'),
  },
  actions: {
    /** The balance changed: refresh what shows it, and close. */
    purchased: notProvidedAction<number>('purchased'),
    /** The provider's hosted page takes over the browser. */
    openPaymentPage: notProvidedAction<string>('openPaymentPage'),
  },
  guards: {
    validAmount: ({ context }) => canBuy(context.amount),
    redirects: (_, result: PurchaseResult) => Boolean(result.redirect_url),
  },
}).createMachine({
  id: 'buyCredits',
  context: { amount: DEFAULT_AMOUNT, failure: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        AMOUNT_CHANGED: {
          actions: assign(({ event }) => ({ amount: keepAmountCharacters(event.text), failure: null })),
        },
        BUY: { guard: 'validAmount', target: 'purchasing', actions: assign({ failure: null }) },
      },
    },
    purchasing: {
      invoke: {
        id: 'purchase',
        src: 'purchase',
        input: ({ context }) => Number(context.amount),
        onDone: [
          {
            guard: { type: 'redirects', params: ({ event }) => event.output },
            target: 'redirecting',
            actions: { type: 'openPaymentPage', params: ({ event }) => event.output.redirect_url ?? '' },
          },
          {
            target: 'purchased',
            actions: { type: 'purchased', params: ({ event }) => event.output.new_balance },
          },
        ],
        onError: { target: 'editing', actions: assign(({ event }) => ({ failure: event.error ?? 'failed' })) },
      },
    },
    /** The browser is on its way to the provider's page. */
    redirecting: { type: 'final' },
    purchased: { type: 'final' },
  },
});

type Snapshot = SnapshotFrom<typeof buyCreditsMachine>;

export const selectAmount = (snapshot: Snapshot) => snapshot.context.amount;
export const selectAmountProblem = (snapshot: Snapshot) => amountProblem(snapshot.context.amount);
export const selectProcessing = (snapshot: Snapshot) => !snapshot.matches('editing');
export const selectCanBuy = (snapshot: Snapshot) => snapshot.matches('editing') && canBuy(snapshot.context.amount);
export const selectFailure = (snapshot: Snapshot) => snapshot.context.failure;
