import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/index.ts';
import { paymentAccounts } from '../../db/schema.ts';
import {
  Conflict,
  InvalidInput,
  NotAuthenticated,
  NotFound,
  NotSetUp,
  PaymentRequired,
  UpstreamFailed,
} from '../../shared/domain-errors.ts';
import { recordPurchaseCommissions } from '../affiliate/index.ts';
import { findUser } from '../auth/index.ts';
import { balanceMicros, dollarsText, grantCredit, microsToDollars, recordFailedPurchase } from '../credits/index.ts';
import { recordRefund, RefundTooLarge } from './refunds.ts';
import {
  BadSignature,
  CardDeclined,
  IdempotencyConflict,
  NotConfigured,
  PaymentRejected,
  ProviderFailed,
  type CardInput,
  type HostedPages,
  type Payer,
  type PaymentProvider,
  type SavedCard,
} from './provider.ts';

/** Spec §9: purchases start at $5. */
export const MINIMUM_PURCHASE_CENTS = 500;
const MICROS_PER_CENT = 10_000n;
const NO_HOSTED_PAGES =
  'The test payment provider has no payment page: it charges the card saved in registration onboarding. Hosted checkout needs Stripe (STRIPE_SECRET_KEY).';
const NO_CARD = 'No payment method is saved yet. Add a card under Payment method on your profile, then buy credits.';
// Stripe's own page takes every card, so that no card number reaches Atelier.
const NO_CARD_FORM =
  "Cards are entered on Stripe's own page here, never on Atelier's: use its card setup (createCustomerSetupSession).";
const NOT_YOUR_SETUP = 'No card setup of this account has this id.';

/** Where a hosted card setup sends the browser back, by the page that started it. */
const SETUP_RETURN_PATHS = {
  profile: '/profile',
  onboarding: '/registration-onboarding',
  claim: '/claim-credit',
} as const;
export type SetupReturn = keyof typeof SETUP_RETURN_PATHS;
// Its answer may have been lost after it charged: then its notification credits the purchase.
const PROVIDER_DOWN =
  'The payment provider did not answer. If your card was charged, the credits arrive within a few minutes; check your balance before trying again.';

const IDEMPOTENCY_CONFLICT =
  'This Idempotency-Key belongs to another purchase (another amount), or its first request is still being answered. Wait for that answer, or start a new purchase.';

/**
 * The provider's key for one purchase: the client's Idempotency-Key (scoped to the user, so no one
 * reaches another's), or a new one when the client sent none.
 */
const attemptOf = (userId: string, idempotencyKey: string | undefined) =>
  idempotencyKey === undefined ? randomUUID() : `${userId}:${idempotencyKey}`;

const columnsOf = (card: SavedCard) => ({
  customerId: card.customerId,
  paymentMethodId: card.paymentMethodId,
  cardBrand: card.brand,
  cardLast4: card.last4,
});

/** Dollars rounded to cents, at least $5 (spec §5's message otherwise). */
function centsOf(amountDollars: number) {
  const cents = Math.round(amountDollars * 100);
  if (cents < MINIMUM_PURCHASE_CENTS) throw new InvalidInput('Amount must be at least $5.00');
  return cents;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The provider's failures as answers; anything else is ours and stays a 500. */
function asDomainError(error: unknown): unknown {
  if (error instanceof CardDeclined) return new PaymentRequired(error.message);
  if (error instanceof PaymentRejected || error instanceof BadSignature || error instanceof RefundTooLarge)
    return new InvalidInput(error.message);
  if (error instanceof NotConfigured) return new NotSetUp(error.message);
  if (error instanceof IdempotencyConflict) return new Conflict(IDEMPOTENCY_CONFLICT);
  if (error instanceof ProviderFailed) return new UpstreamFailed(PROVIDER_DOWN);
  return error;
}

async function answering<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asDomainError(error);
  }
}

export interface PaymentsDeps {
  provider: PaymentProvider;
  /** Where the hosted pages send the browser back. */
  publicUrl: string;
}

/** Purchases of credits: cards saved at the provider, charges, hosted pages and their notifications. */
export function createPaymentsService(db: Db, deps: PaymentsDeps) {
  const { provider } = deps;

  async function payerOf(userId: string) {
    const user = await findUser(db, userId);
    if (!user) throw new NotAuthenticated();
    const [account] = await db
      .select({
        customerId: paymentAccounts.customerId,
        paymentMethodId: paymentAccounts.paymentMethodId,
        provider: paymentAccounts.provider,
      })
      .from(paymentAccounts)
      .where(eq(paymentAccounts.userId, userId));
    // References of another provider (the server switched to or from Stripe) mean nothing to this one.
    const mine = account?.provider === provider.name;
    return {
      payer: { userId, email: user.email, name: user.fullname, customerId: mine ? account.customerId : null },
      paymentMethodId: mine ? account.paymentMethodId : null,
    };
  }

  async function remember(
    userId: string,
    values: { customerId: string | null; paymentMethodId?: string; cardBrand?: string; cardLast4?: string },
  ) {
    const row = { provider: provider.name, ...values, updatedAt: new Date() };
    // A saved card of another provider is forgotten; one of this provider stays unless replaced.
    const kept = (column: AnyPgColumn) =>
      sql`case when ${paymentAccounts.provider} = ${provider.name} then ${column} end`;
    await db
      .insert(paymentAccounts)
      .values({ userId, ...row })
      .onConflictDoUpdate({
        target: paymentAccounts.userId,
        set: {
          paymentMethodId: kept(paymentAccounts.paymentMethodId),
          cardBrand: kept(paymentAccounts.cardBrand),
          cardLast4: kept(paymentAccounts.cardLast4),
          ...row,
        },
      });
  }

  async function credit(userId: string, reference: string, amountCents: number) {
    // One transaction: a crash between the credit and its commission would lose the commission
    // for good, as a repeated notice finds the credit granted and grants nothing.
    await db.transaction(async (tx) => {
      const granted = await grantCredit(tx, {
        userId,
        amountMicros: BigInt(amountCents) * MICROS_PER_CENT,
        type: 'purchase',
        // Bought credit is spent after any free credit, and does not expire.
        kind: 'paid',
        description: `Purchase of ${dollarsText(BigInt(amountCents) * MICROS_PER_CENT)}${provider.test ? ' (test payment)' : ''}`,
        idempotencyKey: `purchase:${reference}`,
        expiresAt: null,
      });
      // A referred customer's purchase earns their affiliate a commission (once per purchase).
      if (granted)
        await recordPurchaseCommissions(tx, {
          userId,
          purchaseKey: `purchase:${reference}`,
          revenueMicros: BigInt(amountCents) * MICROS_PER_CENT,
          at: new Date(),
        });
    });
  }

  async function userExists(userId: string) {
    // Not every reference Stripe carries is a user id, nor even a uuid.
    if (!UUID.test(userId)) return false;
    return (await findUser(db, userId)) !== null;
  }

  const kept = (back: Record<string, string>) =>
    Object.entries(back)
      .map(([name, value]) => `&${name}=${encodeURIComponent(value)}`)
      .join('');
  const returnUrl = (outcome: string, page: SetupReturn = 'profile') =>
    `${deps.publicUrl}${SETUP_RETURN_PATHS[page]}?payment=${outcome}`;

  function cardForm() {
    if (!provider.cardForm) throw new InvalidInput(NO_CARD_FORM);
    return provider.cardForm;
  }

  /** The provider's checkout page for `amountCents` (the same page again for the same attempt); the customer it made is kept. */
  async function checkoutPage(hosted: HostedPages, userId: string, payer: Payer, amountCents: number, attempt: string) {
    const session = await hosted.checkout(payer, {
      amountCents,
      successUrl: returnUrl('success'),
      cancelUrl: returnUrl('cancelled'),
      idempotencyKey: `checkout:${attempt}`,
    });
    await remember(userId, { customerId: session.customerId });
    return session.url;
  }

  return {
    provider,

    /** Hands a card to the provider and keeps its reference; the card itself is never stored. */
    saveCard: (userId: string, card: CardInput) =>
      answering(async () => {
        const form = cardForm();
        const { payer } = await payerOf(userId);
        const saved = await form.saveCard(payer, card);
        await remember(userId, columnsOf(saved));
        return saved;
      }),

    /** Has the provider check a card with its bank, with no charge; nothing of it is kept. */
    verifyCard: (card: CardInput) => answering(() => cardForm().verifyCard(card)),

    /**
     * The card this user's completed setup session took on the provider's page; a card to pay
     * with is kept as the saved one (as its notification also does), one only verified is not.
     */
    cardSetup: (userId: string, sessionId: string) =>
      answering(async () => {
        if (!provider.hosted) throw new NotSetUp(NO_HOSTED_PAGES);
        const setup = await provider.hosted.setupResult(sessionId);
        if (setup.userId !== userId) throw new NotFound(NOT_YOUR_SETUP);
        if (setup.purpose === 'pay') await remember(userId, columnsOf(setup));
        return setup;
      }),

    /** Charges the saved card (or, on Stripe without one, answers its checkout page). Amounts are rounded to cents. */
    purchase: (userId: string, amountDollars: number, idempotencyKey?: string) =>
      answering(async () => {
        const amountCents = centsOf(amountDollars);
        const attempt = attemptOf(userId, idempotencyKey);
        const { payer, paymentMethodId } = await payerOf(userId);
        if (!paymentMethodId) {
          if (!provider.hosted) throw new InvalidInput(NO_CARD);
          const url = await checkoutPage(provider.hosted, userId, payer, amountCents, attempt);
          return { new_balance: microsToDollars(await balanceMicros(db, userId)), redirect_url: url };
        }
        const description = `Purchase of ${dollarsText(BigInt(amountCents) * MICROS_PER_CENT)}`;
        try {
          const { paymentId } = await provider.charge({
            payer,
            paymentMethodId,
            amountCents,
            description,
            idempotencyKey: `purchase:${attempt}`,
          });
          await credit(userId, paymentId, amountCents);
        } catch (error) {
          if (error instanceof CardDeclined)
            await recordFailedPurchase(db, {
              userId,
              amountMicros: BigInt(amountCents) * MICROS_PER_CENT,
              description: `${description}: ${error.message}`,
              idempotencyKey: `purchase-declined:${attempt}`,
            });
          throw error;
        }
        return { new_balance: microsToDollars(await balanceMicros(db, userId)) };
      }),

    checkout: (userId: string, amountDollars: number, idempotencyKey?: string) =>
      answering(async () => {
        if (!provider.hosted) throw new NotSetUp(NO_HOSTED_PAGES);
        const amountCents = centsOf(amountDollars);
        const { payer } = await payerOf(userId);
        const attempt = attemptOf(userId, idempotencyKey);
        return { redirect_url: await checkoutPage(provider.hosted, userId, payer, amountCents, attempt) };
      }),

    /** `back` is kept in the return addresses (the onboarding chat the person came from). */
    setup: (userId: string, page: SetupReturn = 'profile', back: Record<string, string> = {}) =>
      answering(async () => {
        if (!provider.hosted) throw new NotSetUp(NO_HOSTED_PAGES);
        const { payer } = await payerOf(userId);
        const session = await provider.hosted.setup(payer, {
          // The provider fills the session's id in: the page back names it to the server.
          successUrl: `${returnUrl('card-saved', page)}${kept(back)}&setup_session={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${returnUrl('cancelled', page)}${kept(back)}`,
          purpose: page === 'claim' ? 'verify' : 'pay',
        });
        await remember(userId, { customerId: session.customerId });
        return { redirect_url: session.url };
      }),

    /** A provider's signed notification: a paid checkout credits its purchase once, however often delivered. */
    notification: (rawBody: Buffer | null, signature: string | undefined) =>
      answering(async () => {
        if (!provider.hosted) throw new NotSetUp(NO_HOSTED_PAGES);
        if (!rawBody || !signature) throw new InvalidInput('The Stripe-Signature header is missing.');
        const event = await provider.hosted.event(rawBody, signature);
        // Signed, yet nothing to act on: refused (4xx, not a 500 of ours) rather than written half-way.
        if ((event.kind === 'purchase-completed' || event.kind === 'purchase-refunded') && !(event.amountCents > 0))
          throw new PaymentRejected(
            `The notification's amount is not a positive number of cents: ${event.amountCents}.`,
          );
        if ((event.kind === 'purchase-completed' || event.kind === 'card-saved') && !(await userExists(event.userId)))
          throw new PaymentRejected(`The notification names no user of this platform: ${event.userId}.`);
        if (event.kind === 'purchase-completed') await credit(event.userId, event.reference, event.amountCents);
        if (event.kind === 'purchase-refunded')
          await recordRefund(db, {
            reference: event.reference,
            refundId: event.refundId,
            amountMicros: BigInt(event.amountCents) * MICROS_PER_CENT,
          });
        if (event.kind === 'card-saved') {
          await remember(event.userId, columnsOf(event));
        }
        return { success: true };
      }),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
