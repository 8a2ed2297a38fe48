import { randomUUID } from 'node:crypto';
import {
  CardDeclined,
  IdempotencyConflict,
  PaymentRejected,
  type CardInput,
  type PaymentProvider,
} from './provider.ts';

// The payment provider when no Stripe key is configured: it moves no money and accepts only the
// card numbers Stripe documents for testing (https://docs.stripe.com/testing), with their
// outcomes, so the whole purchase path can be used and tested without an account anywhere.

type Outcome =
  | 'succeeds'
  | 'declined'
  | 'insufficient_funds'
  | 'lost_card'
  | 'stolen_card'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'processing_error'
  /** Attaches, as a card the bank accepts, and is declined when charged (Stripe's 0341). */
  | 'declined_on_charge';

const TEST_CARDS: Record<string, { brand: string; outcome: Outcome }> = {
  '4242424242424242': { brand: 'visa', outcome: 'succeeds' },
  '4000056655665556': { brand: 'visa', outcome: 'succeeds' },
  '5555555555554444': { brand: 'mastercard', outcome: 'succeeds' },
  '2223003122003222': { brand: 'mastercard', outcome: 'succeeds' },
  '5200828282828210': { brand: 'mastercard', outcome: 'succeeds' },
  '378282246310005': { brand: 'amex', outcome: 'succeeds' },
  '371449635398431': { brand: 'amex', outcome: 'succeeds' },
  '6011111111111117': { brand: 'discover', outcome: 'succeeds' },
  '3566002020360505': { brand: 'jcb', outcome: 'succeeds' },
  '6200000000000005': { brand: 'unionpay', outcome: 'succeeds' },
  '4000000000000002': { brand: 'visa', outcome: 'declined' },
  '4000000000009995': { brand: 'visa', outcome: 'insufficient_funds' },
  '4000000000009987': { brand: 'visa', outcome: 'lost_card' },
  '4000000000009979': { brand: 'visa', outcome: 'stolen_card' },
  '4000000000000069': { brand: 'visa', outcome: 'expired_card' },
  '4000000000000127': { brand: 'visa', outcome: 'incorrect_cvc' },
  '4000000000000119': { brand: 'visa', outcome: 'processing_error' },
  '4000000000000341': { brand: 'visa', outcome: 'declined_on_charge' },
};

/** Stripe's messages for its test outcomes. */
const DECLINES: Record<Exclude<Outcome, 'succeeds'>, string> = {
  declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  lost_card: 'Your card was declined.',
  stolen_card: 'Your card was declined.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  processing_error: 'An error occurred while processing your card. Try again in a little bit.',
  declined_on_charge: 'Your card was declined.',
};

export const NOT_A_TEST_CARD =
  'The test payment provider accepts only test card numbers, such as 4242 4242 4242 4242. Real cards need Stripe (STRIPE_SECRET_KEY).';

// The saved method's id carries the card's outcome, as Stripe's test tokens (pm_card_chargeDeclined) do.
/** How the test provider's payments are named: only they are refunded by the operator's command. */
export const TEST_PAYMENT_PREFIX = 'pi_test_';
const methodId = (outcome: Outcome) => `pm_test_${outcome}_${randomUUID().replaceAll('-', '')}`;
const outcomeOf = (paymentMethodId: string): Outcome => {
  const named = /^pm_test_([a-z_]+)_[0-9a-f]{32}$/.exec(paymentMethodId)?.[1];
  return named && named in DECLINES ? (named as Outcome) : 'succeeds';
};

/**
 * The bank's answer when a card is saved or verified: as on Stripe, every declining test card is
 * refused then, except 0341, which attaches and is declined on its first charge.
 */
function accepted(card: CardInput) {
  const known = TEST_CARDS[card.number];
  if (!known) throw new PaymentRejected(NOT_A_TEST_CARD);
  if (known.outcome !== 'succeeds' && known.outcome !== 'declined_on_charge')
    throw new CardDeclined(DECLINES[known.outcome]);
  return known;
}

/**
 * Charges by idempotency key, as Stripe keeps them: the same key answers as its first request
 * did (while it still runs too), with other parameters it is refused. Stripe keeps a key 24 h;
 * here the newest ones, in the server's memory.
 */
const charges = new Map<string, { parameters: string; answer: Promise<{ paymentId: string }> }>();
const KEPT_CHARGES = 10_000;

function chargeOnce(idempotencyKey: string, parameters: string, charge: () => Promise<{ paymentId: string }>) {
  const known = charges.get(idempotencyKey);
  if (known && known.parameters !== parameters)
    throw new IdempotencyConflict(
      'Keys for idempotent requests can only be used with the same parameters they were first used with.',
    );
  if (known) return known.answer;
  const answer = charge();
  charges.set(idempotencyKey, { parameters, answer });
  if (charges.size > KEPT_CHARGES) charges.delete(charges.keys().next().value ?? '');
  return answer;
}

export const testPaymentProvider: PaymentProvider = {
  name: 'test',
  test: true,
  hosted: null,
  cardForm: {
    async saveCard(_payer, card) {
      const known = accepted(card);
      return {
        customerId: null,
        paymentMethodId: methodId(known.outcome),
        brand: known.brand,
        last4: card.number.slice(-4),
      };
    },
    async verifyCard(card) {
      accepted(card);
    },
  },
  charge: ({ paymentMethodId, amountCents, idempotencyKey }) =>
    chargeOnce(idempotencyKey, JSON.stringify([paymentMethodId, amountCents]), async () => {
      const outcome = outcomeOf(paymentMethodId);
      if (outcome !== 'succeeds') throw new CardDeclined(DECLINES[outcome]);
      return { paymentId: `${TEST_PAYMENT_PREFIX}${randomUUID().replaceAll('-', '')}` };
    }),
};
