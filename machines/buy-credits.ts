import { assign, setup, type SnapshotFrom } from 'xstate';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';
import { isServerRejection } from './notice.ts';

// The Buy Credits dialog (spec §2, §5, §8). The amount keeps digits and one decimal point
// (default 25.00); Buy is enabled when it is at least $5 and nothing is being bought. A purchase
// answers the new balance, or the payment provider's page to continue on; a failure shows the
// server's detail (or 'Failed to purchase credits') and the user may change the amount and retry.
// Each purchase carries an Idempotency-Key made here: sent again when its request got no answer
// (the network failed, the server was busy with it: 409, or the provider did not answer: 5xx),
// so a retry never charges twice; a new one for another amount or after a refusal (a decline).

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
  /** Made once per dialog (its input); with `purchase`, the purchase's Idempotency-Key. */
  dialogKey: string;
  /** Counts the purchases tried in the dialog. */
  purchase: number;
}

export interface BuyCreditsInput {
  /** A random id for this dialog (crypto.randomUUID()). */
  dialogKey: string;
}

export interface PurchaseRequest {
  /** Dollars. */
  amount: number;
  idempotencyKey: string;
}

const idempotencyKeyOf = (context: BuyCreditsContext) => `${context.dialogKey}-${context.purchase}`;

/** The server answered and refused this purchase (a 4xx other than 409): a retry is a new purchase. */
const refused = (error: unknown) =>
  isServerRejection(error) && error.status >= 400 && error.status < 500 && error.status !== 409;

export type BuyCreditsEvent = { type: 'AMOUNT_CHANGED'; text: string } | { type: 'BUY' };

const canBuy = (amount: string) => dollarsOf(amount) !== null && amountProblem(amount) === null;

export const buyCreditsMachine = setup({
  types: { context: {} as BuyCreditsContext, events: {} as BuyCreditsEvent, input: {} as BuyCreditsInput },
  actors: {
    /** POST /api/auth/purchase-credits with the amount in dollars and the Idempotency-Key. */
    purchase: notProvidedPromise<PurchaseResult, PurchaseRequest>('purchase'),
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
  context: ({ input }) => ({ amount: DEFAULT_AMOUNT, failure: null, dialogKey: input.dialogKey, purchase: 1 }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        AMOUNT_CHANGED: {
          actions: assign(({ context, event }) => ({
            amount: keepAmountCharacters(event.text),
            failure: null,
            purchase: context.purchase + 1,
          })),
        },
        BUY: { guard: 'validAmount', target: 'purchasing', actions: assign({ failure: null }) },
      },
    },
    purchasing: {
      invoke: {
        id: 'purchase',
        src: 'purchase',
        input: ({ context }) => ({ amount: Number(context.amount), idempotencyKey: idempotencyKeyOf(context) }),
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
        onError: {
          target: 'editing',
          actions: assign(({ context, event }) => ({
            failure: event.error ?? 'failed',
            purchase: refused(event.error) ? context.purchase + 1 : context.purchase,
          })),
        },
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
export const selectIdempotencyKey = (snapshot: Snapshot) => idempotencyKeyOf(snapshot.context);
