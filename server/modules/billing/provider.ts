/** Who pays, as the payment provider knows them. */
export interface Payer {
  userId: string;
  email: string;
  name: string;
  /** The provider's customer, once there is one. */
  customerId: string | null;
}

/** A card as typed into the onboarding form: handed to the provider, never kept. */
export interface CardInput {
  /** Digits only. */
  number: string;
  expMonth: number;
  /** Four digits. */
  expYear: number;
  cvc: string;
  holderName: string;
}

/** What is kept of a saved card: the provider's references and what may be shown. */
export interface SavedCard {
  customerId: string | null;
  paymentMethodId: string;
  brand: string;
  last4: string;
}

/** What a provider's signed notification (a webhook) reports. */
export type ProviderEvent =
  | { kind: 'purchase-completed'; userId: string; reference: string; amountCents: number }
  /** Money given back for a purchase (`reference`: the purchase's), once per `refundId`. */
  | { kind: 'purchase-refunded'; reference: string; refundId: string; amountCents: number }
  | ({ kind: 'card-saved'; userId: string } & SavedCard)
  | { kind: 'ignored'; type: string };

/** Why a card is set up on the provider's page: to pay with it, or only to verify it for the trial. */
export type SetupPurpose = 'pay' | 'verify';

/** A card the provider's own page took and the provider accepted (a succeeded SetupIntent). */
export interface CardSetup extends SavedCard {
  /** The user the session was made for. */
  userId: string | null;
  purpose: SetupPurpose;
  /** The provider's fingerprint of the card number (the same card, the same one), when it gives one. */
  fingerprint: string | null;
  expMonth: number;
  /** Four digits. */
  expYear: number;
  holderName: string | null;
}

/** Pages the provider hosts (Stripe Checkout); a provider without them charges saved cards only. */
export interface HostedPages {
  checkout(
    payer: Payer,
    input: { amountCents: number; successUrl: string; cancelUrl: string; idempotencyKey: string },
  ): Promise<HostedSession>;
  /** `successUrl` may hold `{CHECKOUT_SESSION_ID}`, which the provider fills in on the way back. */
  setup(payer: Payer, input: { successUrl: string; cancelUrl: string; purpose: SetupPurpose }): Promise<HostedSession>;
  /** The card a completed setup session took; throws PaymentRejected when it took none. */
  setupResult(sessionId: string): Promise<CardSetup>;
  /** Checks a notification's signature over its exact bytes and reads it. */
  event(rawBody: Buffer, signature: string): Promise<ProviderEvent>;
}

/** Atelier's own card form, for a provider that takes card numbers from it (the test provider only). */
export interface CardForm {
  /** Keeps the card at the provider for later charges; throws CardDeclined when it refuses the card. */
  saveCard(payer: Payer, card: CardInput): Promise<SavedCard>;
  /** Has the provider check the card with its bank, charging and keeping nothing; throws CardDeclined or PaymentRejected. */
  verifyCard(card: CardInput): Promise<void>;
}

export interface HostedSession {
  url: string;
  /** The customer the session belongs to (created for it when the payer had none). */
  customerId: string;
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'test';
  /** Its payments are test ones: no money moves. */
  readonly test: boolean;
  /** Null where the provider's own page takes every card, so no card number reaches Atelier (Stripe). */
  readonly cardForm: CardForm | null;
  /** Charges a saved card now; throws CardDeclined or ProviderFailed. */
  charge(input: {
    payer: Payer;
    paymentMethodId: string;
    amountCents: number;
    description: string;
    idempotencyKey: string;
  }): Promise<{ paymentId: string }>;
  readonly hosted: HostedPages | null;
}

/** The provider refused the card or the charge: nothing was charged. The message is the provider's, for the user. */
export class CardDeclined extends Error {}

/** The request was not acceptable to the provider (its message says why). */
export class PaymentRejected extends Error {}

/** An idempotency key sent again with other parameters, or while its first request still runs (Stripe's 409). */
export class IdempotencyConflict extends Error {}

/** The provider could not be reached or failed: nothing is known to have been charged. */
export class ProviderFailed extends Error {}

/** A notification whose signature does not match its body. */
export class BadSignature extends Error {}

/** The provider lacks a setting this call needs (its message names it). */
export class NotConfigured extends Error {}
