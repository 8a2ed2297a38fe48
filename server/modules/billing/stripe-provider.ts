import type Stripe from 'stripe';
import {
  BadSignature,
  CardDeclined,
  type CardSetup,
  IdempotencyConflict,
  NotConfigured,
  PaymentRejected,
  ProviderFailed,
  type Payer,
  type PaymentProvider,
  type ProviderEvent,
  type SavedCard,
} from './provider.ts';

export interface StripeConfig {
  secretKey: string;
  /** The endpoint's signing secret (whsec_…); without it webhooks cannot be checked and are refused. */
  webhookSecret: string | null;
  /** Another API host than api.stripe.com (a local server speaking its API, in tests). */
  apiUrl: string | null;
}

/**
 * Stripe's SDK, loaded on the first call: the server starts without it (about 0.3 s and 17 MB),
 * and one without Stripe settings never loads it.
 */
let sdk: typeof Stripe | null = null;
let loading: Promise<typeof Stripe> | null = null;
const loadSdk = () =>
  (loading ??= import('stripe').then((module) => {
    sdk = module.default;
    return sdk;
  }));

/** Stripe's errors as ours: its card errors carry a message meant for the card holder. */
function translated(error: unknown): Error {
  // Ours already (a payment that needs the bank's page, a session that took no card): as it is.
  if (error instanceof CardDeclined || error instanceof PaymentRejected || error instanceof ProviderFailed)
    return error;
  if (sdk && error instanceof sdk.errors.StripeCardError) return new CardDeclined(error.message);
  if (sdk && error instanceof sdk.errors.StripeInvalidRequestError) return new PaymentRejected(error.message);
  if (sdk && error instanceof sdk.errors.StripeSignatureVerificationError) return new BadSignature(error.message);
  if (sdk && error instanceof sdk.errors.StripeIdempotencyError) return new IdempotencyConflict(error.message);
  return new ProviderFailed(error instanceof Error ? error.message : String(error));
}

async function stripeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw translated(error);
  }
}

const cardOf = (method: Stripe.PaymentMethod, customerId: string): SavedCard => ({
  customerId,
  paymentMethodId: method.id,
  brand: method.card?.brand ?? 'unknown',
  last4: method.card?.last4 ?? '',
});

// A setup session the browser names on its way back, which took no card (left, or not this user's).
const NO_CARD_SET_UP = 'Stripe has no card set up in this session. Please add the card again.';

/** The id of a field Stripe sends as an id or as the expanded object. */
const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/** Payments through Stripe: cards set up on its hosted page and charged off-session, Checkout for payment, signed webhooks. */
export function createStripeProvider(config: StripeConfig): PaymentProvider {
  const api = config.apiUrl ? new URL(config.apiUrl) : null;
  let client: Promise<Stripe> | null = null;
  const stripeApi = () =>
    (client ??= loadSdk().then(
      (Sdk) =>
        new Sdk(config.secretKey, {
          maxNetworkRetries: 2,
          timeout: 20_000,
          ...(api && { host: api.hostname, port: api.port, protocol: api.protocol === 'http:' ? 'http' : 'https' }),
        }),
    ));
  const withStripe = <T>(call: (stripe: Stripe) => Promise<T>) => stripeCall(async () => call(await stripeApi()));

  /** The payer's Stripe customer, created once (the idempotency key makes a retry return the same one). */
  async function customerOf(stripe: Stripe, payer: Payer): Promise<string> {
    if (payer.customerId) return payer.customerId;
    const customer = await stripe.customers.create(
      { email: payer.email, name: payer.name, metadata: { user_id: payer.userId } },
      { idempotencyKey: `customer:${payer.userId}` },
    );
    return customer.id;
  }

  async function checkoutCompleted(stripe: Stripe, session: Stripe.Checkout.Session): Promise<ProviderEvent> {
    const userId = session.client_reference_id;
    if (!userId) return { kind: 'ignored', type: 'checkout.session.completed without client_reference_id' };
    if (session.mode === 'payment' && session.payment_status === 'paid')
      return {
        kind: 'purchase-completed',
        userId,
        // The payment intent, as for a saved card's charge: a refund names it.
        reference: idOf(session.payment_intent) ?? session.id,
        amountCents: session.amount_total ?? 0,
      };
    // A card set up only to be verified (the trial) is not the one to pay with.
    if (session.mode === 'setup' && session.metadata?.purpose === 'verify')
      return { kind: 'ignored', type: 'checkout.session.completed (setup to verify a card)' };
    if (session.mode === 'setup' && session.setup_intent) {
      const intentId = typeof session.setup_intent === 'string' ? session.setup_intent : session.setup_intent.id;
      const intent = await stripe.setupIntents.retrieve(intentId, { expand: ['payment_method'] });
      const method = intent.payment_method;
      const customerId = typeof session.customer === 'string' ? session.customer : session.customer?.id;
      if (method && typeof method !== 'string' && customerId)
        return { kind: 'card-saved', userId, ...cardOf(method, customerId) };
    }
    return { kind: 'ignored', type: `checkout.session.completed (${session.mode}, ${session.payment_status})` };
  }

  return {
    name: 'stripe',
    test: config.secretKey.includes('_test_'),
    // Stripe's own page takes every card: no card number reaches Atelier (PCI DSS SAQ A).
    cardForm: null,
    charge: ({ payer, paymentMethodId, amountCents, description, idempotencyKey }) =>
      withStripe(async (stripe) => {
        const intent = await stripe.paymentIntents.create(
          {
            amount: amountCents,
            currency: 'usd',
            customer: await customerOf(stripe, payer),
            payment_method: paymentMethodId,
            off_session: true,
            confirm: true,
            description,
            metadata: { user_id: payer.userId },
          },
          { idempotencyKey },
        );
        if (intent.status !== 'succeeded')
          throw new CardDeclined(
            'Your bank asks to confirm this payment. Please buy through the payment page instead.',
          );
        return { paymentId: intent.id };
      }),
    hosted: {
      checkout: (payer, { amountCents, successUrl, cancelUrl, idempotencyKey }) =>
        withStripe(async (stripe) => {
          const customerId = await customerOf(stripe, payer);
          const session = await stripe.checkout.sessions.create(
            {
              mode: 'payment',
              customer: customerId,
              client_reference_id: payer.userId,
              line_items: [
                {
                  quantity: 1,
                  price_data: { currency: 'usd', unit_amount: amountCents, product_data: { name: 'Atelier credits' } },
                },
              ],
              success_url: successUrl,
              cancel_url: cancelUrl,
            },
            { idempotencyKey },
          );
          if (!session.url) throw new ProviderFailed('Stripe returned a checkout session without a URL');
          return { url: session.url, customerId };
        }),
      setup: (payer, { successUrl, cancelUrl, purpose }) =>
        withStripe(async (stripe) => {
          const customerId = await customerOf(stripe, payer);
          const session = await stripe.checkout.sessions.create({
            mode: 'setup',
            currency: 'usd',
            customer: customerId,
            client_reference_id: payer.userId,
            metadata: { purpose },
            success_url: successUrl,
            cancel_url: cancelUrl,
          });
          if (!session.url) throw new ProviderFailed('Stripe returned a setup session without a URL');
          return { url: session.url, customerId };
        }),
      setupResult: (sessionId) =>
        withStripe(async (stripe): Promise<CardSetup> => {
          const session = await stripe.checkout.sessions.retrieve(sessionId, {
            expand: ['setup_intent.payment_method'],
          });
          const intent = session.setup_intent;
          const method = intent && typeof intent !== 'string' ? intent.payment_method : null;
          const customerId = idOf(session.customer);
          if (
            session.mode !== 'setup' ||
            session.status !== 'complete' ||
            typeof intent === 'string' ||
            intent?.status !== 'succeeded' ||
            !method ||
            typeof method === 'string' ||
            !method.card ||
            !customerId
          )
            throw new PaymentRejected(NO_CARD_SET_UP);
          return {
            ...cardOf(method, customerId),
            userId: session.client_reference_id,
            purpose: session.metadata?.purpose === 'verify' ? 'verify' : 'pay',
            fingerprint: method.card.fingerprint ?? null,
            expMonth: method.card.exp_month,
            expYear: method.card.exp_year,
            holderName: method.billing_details.name,
          };
        }),
      event: (rawBody, signature) =>
        withStripe(async (stripe) => {
          if (!config.webhookSecret) throw new NotConfigured('Stripe webhooks need STRIPE_WEBHOOK_SECRET.');
          const event = await stripe.webhooks.constructEventAsync(rawBody, signature, config.webhookSecret);
          if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded')
            return checkoutCompleted(stripe, event.data.object);
          // A saved card's off-session charge (its metadata names the user), credited here too, once:
          // the server may have stopped, or lost Stripe's answer, between the charge and its credit.
          if (event.type === 'payment_intent.succeeded') {
            const intent = event.data.object;
            const userId = intent.metadata?.user_id;
            if (userId)
              return { kind: 'purchase-completed', userId, reference: intent.id, amountCents: intent.amount_received };
          }
          // A refund made in Stripe's dashboard or API, once it has succeeded.
          if (event.type === 'refund.created' || event.type === 'refund.updated') {
            const refund = event.data.object;
            const reference = idOf(refund.payment_intent);
            if (refund.status === 'succeeded' && reference)
              return { kind: 'purchase-refunded', reference, refundId: refund.id, amountCents: refund.amount };
          }
          return { kind: 'ignored', type: event.type };
        }),
    },
  };
}
