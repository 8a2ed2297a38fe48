import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPurchases } from '../../server/modules/billing/index.ts';
import { call, withTestApp } from '../support/app.ts';
import { saveCardThroughOnboarding, saveOnboardingContact, signUp } from '../support/conversations.ts';
import { startStripeServer } from '../support/stripe-server.ts';

// Purchases through the Stripe provider (the official `stripe` package) against a local server
// that speaks the Stripe endpoints used, with webhooks signed as Stripe signs them.

const SECRET_KEY = 'sk_test_atelier';
const WEBHOOK_SECRET = 'whsec_atelier_tests';
let stripe: Awaited<ReturnType<typeof startStripeServer>>;
beforeAll(async () => {
  stripe = await startStripeServer({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
});
afterAll(() => stripe?.close());
const t = withTestApp(() => ({
  STRIPE_SECRET_KEY: SECRET_KEY,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_URL: stripe.url,
}));

const deliver = (event: { payload: string; signature?: string }) =>
  t.app.http.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    payload: event.payload,
    headers: { 'content-type': 'application/json', ...(event.signature && { 'stripe-signature': event.signature }) },
  });
const purchase = (token: string, amount: number) =>
  call(t.app, 'POST', '/api/auth/purchase-credits', { token, body: { amount } });
const balance = async (token: string) =>
  (await call(t.app, 'GET', '/api/billing/credits', { token })).body?.credits as number;
const sessionOf = (redirectUrl: string) => redirectUrl.split('/').at(-1) as string;

/** The setup session of `returnTo`'s page, the card typed on Stripe's page, and the page back: its `setup_session`. */
async function setUpOnStripePage(token: string, cardNumber: string) {
  const setup = await call(t.app, 'POST', '/api/atelier/onboarding/card-setup-session', { token });
  const sessionId = sessionOf(setup.body?.redirect_url as string);
  const completed = stripe.completeSetup(sessionId, cardNumber);
  return { sessionId, completed, back: new URL(stripe.returnUrl(sessionId)) };
}

/** The onboarding card as Stripe's page takes it: the page back names its session to the server. */
async function saveCardOnStripePage(token: string, cardNumber: string) {
  const contactId = await saveOnboardingContact(t.app, token);
  const { back } = await setUpOnStripePage(token, cardNumber);
  return call(t.app, 'POST', '/api/atelier/onboarding/save-card-setup', {
    token,
    body: { contact_information_id: contactId, setup_session_id: back.searchParams.get('setup_session') },
  });
}

describe('buying credits through Stripe', () => {
  it('takes the onboarding card on Stripe’s page, never Atelier’s, and charges it off-session', async () => {
    // The browser learns that payments use hosted pages: the card steps offer Stripe's card setup.
    expect((await call(t.app, 'GET', '/api/options/config')).body?.HOSTED_PAYMENTS).toBe(true);
    const ada = await signUp(t.app, t.db, 'ada-stripe@acme.example');
    // Atelier's own card form is closed: no card number reaches it with Stripe.
    expect(await saveCardThroughOnboarding(t.app, ada.token, '4242 4242 4242 4242')).toMatchObject({
      status: 400,
      body: { detail: expect.stringMatching(/^Cards are entered on Stripe's own page here/) },
    });
    const contactId = await saveOnboardingContact(t.app, ada.token);
    const { sessionId, back } = await setUpOnStripePage(ada.token, '4242424242424242');
    const created = stripe.requests.find((r) => r.path === '/v1/checkout/sessions' && r.form.mode === 'setup');
    expect(created?.form).toMatchObject({
      client_reference_id: ada.id,
      'metadata[purpose]': 'pay',
      success_url: expect.stringMatching(
        /\/registration-onboarding\?payment=card-saved&setup_session=\{CHECKOUT_SESSION_ID\}$/,
      ),
    });
    expect(back.searchParams.get('setup_session')).toBe(sessionId);
    const keep = (token: string, session = sessionId) =>
      call(t.app, 'POST', '/api/atelier/onboarding/save-card-setup', {
        token,
        body: { contact_information_id: contactId, setup_session_id: session },
      });
    // The page back names the session twice (a reload): one card, one $50.
    for (let time = 0; time < 2; time++)
      expect((await keep(ada.token)).body?.payment_information).toMatchObject({
        card_brand: 'visa',
        card_last4: '4242',
        expiry_date: '12/35',
        cardholder_name: 'Card Holder',
        same_billing_address: true,
        billing_city: 'Berlin',
      });
    expect(await balance(ada.token)).toBe(60);
    const customer = [...stripe.customers.values()].find((c) => c.email === 'ada-stripe@acme.example');
    expect(customer?.metadata).toEqual({ user_id: ada.id });
    // Another account cannot take ada's card by naming her session; a session of nothing is refused.
    const bea = await signUp(t.app, t.db, 'bea-stripe@acme.example');
    const beaContact = await saveOnboardingContact(t.app, bea.token);
    expect(
      await call(t.app, 'POST', '/api/atelier/onboarding/save-card-setup', {
        token: bea.token,
        body: { contact_information_id: beaContact, setup_session_id: sessionId },
      }),
    ).toMatchObject({ status: 404 });
    const unfinished = sessionOf(
      (await call(t.app, 'POST', '/api/billing/create-customer-setup-session', { token: bea.token })).body
        ?.redirect_url as string,
    );
    expect(
      await call(t.app, 'POST', '/api/atelier/onboarding/save-card-setup', {
        token: bea.token,
        body: { contact_information_id: beaContact, setup_session_id: unfinished },
      }),
    ).toMatchObject({
      status: 400,
      body: { detail: 'Stripe has no card set up in this session. Please add the card again.' },
    });
    expect(await balance(bea.token)).toBe(10);
    // An account still in onboarding reaches only onboarding's operations: its own way to Stripe's page.
    const newcomer = await signUp(t.app, t.db, 'new-stripe@acme.example', { onboarded: false });
    expect(
      (await call(t.app, 'POST', '/api/billing/create-customer-setup-session', { token: newcomer.token })).status,
    ).toBe(403);
    const chat = '6f1f9e2a-4b7c-4d3e-9a10-2b3c4d5e6f70';
    const opened = await call(t.app, 'POST', '/api/atelier/onboarding/card-setup-session', {
      token: newcomer.token,
      body: { chat },
    });
    // Back from Stripe's page, the person who came from the onboarding chat goes back to it when done.
    const toChat = new URL(stripe.returnUrl(sessionOf(opened.body?.redirect_url as string)));
    expect([toChat.pathname, toChat.searchParams.get('chat'), toChat.searchParams.get('payment')]).toEqual([
      '/registration-onboarding',
      chat,
      'card-saved',
    ]);

    expect((await purchase(ada.token, 40)).body).toEqual({ new_balance: 100 });
    const charge = stripe.requests.filter((r) => r.path === '/v1/payment_intents').at(-1);
    expect(charge?.form).toMatchObject({
      amount: '4000',
      currency: 'usd',
      customer: customer?.id,
      off_session: 'true',
      confirm: 'true',
    });
    // No request Atelier made to Stripe carried the number: Stripe's page took it.
    expect(JSON.stringify(stripe.requests)).not.toContain('4242424242424242');
  });

  it('sends a buyer without a saved card to Checkout and credits the paid session once, however often delivered', async () => {
    const bob = await signUp(t.app, t.db, 'bob-stripe@acme.example');
    const started = await purchase(bob.token, 25);
    expect(started.body).toMatchObject({
      new_balance: 10,
      redirect_url: expect.stringMatching(/\/checkout\/cs_test_/),
    });
    const sessionId = sessionOf(started.body?.redirect_url as string);
    const created = stripe.requests.find(
      (r) => r.path === '/v1/checkout/sessions' && r.form.client_reference_id === bob.id,
    );
    expect(created?.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '2500',
      success_url: expect.stringMatching(/\/profile\?payment=success$/),
    });
    expect(await balance(bob.token)).toBe(10);

    const paid = stripe.payCheckout(sessionId);
    const deliveries = await Promise.all([deliver(paid), deliver(paid), deliver(paid)]);
    expect(deliveries.map((d) => d.statusCode)).toEqual([200, 200, 200]);
    expect(await balance(bob.token)).toBe(35);
    const other = await call(t.app, 'GET', '/api/auth/transactions/other', { token: bob.token });
    expect((other.body?.transactions as { description: string }[]).map((row) => row.description)).toEqual([
      'Purchase of $25.00 (test payment)',
      'tests',
    ]);

    // The dedicated endpoint makes the same kind of session.
    const checkout = await call(t.app, 'POST', '/api/billing/create-checkout-session', {
      token: bob.token,
      body: { amount: 5 },
    });
    expect(checkout.body?.redirect_url).toMatch(/\/checkout\/cs_test_/);
    // Sent again with its Idempotency-Key (a double click, a retry): Stripe's key, the same session.
    const once = () =>
      call(t.app, 'POST', '/api/billing/create-checkout-session', {
        token: bob.token,
        body: { amount: 40 },
        headers: { 'Idempotency-Key': 'checkout-1' },
      });
    const [first, again] = [await once(), await once()];
    expect(first.body?.redirect_url).toMatch(/\/checkout\/cs_test_/);
    expect(again.body?.redirect_url).toBe(first.body?.redirect_url);
  });

  it('credits, once, an off-session charge whose answer was lost, from its payment_intent.succeeded notice', async () => {
    const cy = await signUp(t.app, t.db, 'cy-stripe@acme.example');
    await saveCardOnStripePage(cy.token, '4242424242424242');
    const before = await balance(cy.token);
    const intentsOf = (userId: string) =>
      [...stripe.paymentIntents.values()].filter(
        (intent) => (intent.metadata as { user_id?: string }).user_id === userId,
      );

    // Stripe charges, but its answer (and the client's two retries') never arrives.
    stripe.dropAnswers('/v1/payment_intents', 3);
    const lost = await purchase(cy.token, 25);
    expect(lost).toMatchObject({
      status: 502,
      body: {
        detail:
          'The payment provider did not answer. If your card was charged, the credits arrive within a few minutes; check your balance before trying again.',
      },
    });
    expect(await balance(cy.token)).toBe(before);
    const [charged] = intentsOf(cy.id);
    expect(intentsOf(cy.id)).toHaveLength(1);
    expect(charged).toMatchObject({ amount_received: 2500, status: 'succeeded' });
    const notice = stripe.signedEvent('payment_intent.succeeded', charged ?? {});
    for (let delivery = 0; delivery < 2; delivery++) expect((await deliver(notice)).statusCode).toBe(200);
    expect(await balance(cy.token)).toBe(before + 25);

    // A charge credited at once is not credited again by its notice.
    expect((await purchase(cy.token, 10)).body).toEqual({ new_balance: before + 35 });
    const second = intentsOf(cy.id).at(-1) ?? {};
    expect((await deliver(stripe.signedEvent('payment_intent.succeeded', second))).statusCode).toBe(200);
    expect(await balance(cy.token)).toBe(before + 35);
  });

  it('records a refund made in Stripe once, taking its credit back; a refund of a payment Atelier did not make is ignored', async () => {
    const cy = await signUp(t.app, t.db, 'cy-refund@acme.example');
    await saveCardOnStripePage(cy.token, '4242424242424242');
    expect((await purchase(cy.token, 40)).body).toEqual({ new_balance: 100 });
    // The purchase is known by its payment intent, which Stripe's refund names.
    const [bought] = await listPurchases(t.db, cy.id);
    expect(bought?.reference).toMatch(/^pi_/);
    const refund = stripe.refund(bought?.reference ?? '', 1500);
    const deliveries = await Promise.all([deliver(refund), deliver(refund)]);
    expect(deliveries.map((d) => d.statusCode)).toEqual([200, 200]);
    expect(await balance(cy.token)).toBe(85);
    expect((await deliver(stripe.refund('pi_not_ours', 1500))).statusCode).toBe(200);
    expect(await balance(cy.token)).toBe(85);
  });

  it('refuses a notification whose signature does not match, and one without a signature', async () => {
    const eve = await signUp(t.app, t.db, 'eve-stripe@acme.example');
    const started = await purchase(eve.token, 500);
    const paid = stripe.payCheckout(sessionOf(started.body?.redirect_url as string));
    const forged = stripe.signedEvent(
      'checkout.session.completed',
      JSON.parse(paid.payload).data.object,
      'whsec_wrong',
    );
    const refused = await deliver(forged);
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).detail).toMatch(/signature/i);
    expect((await deliver({ payload: paid.payload })).statusCode).toBe(400);
    // The body changed after signing: refused too.
    expect(
      (await deliver({ ...paid, payload: paid.payload.replace('"amount_total":50000', '"amount_total":90000') }))
        .statusCode,
    ).toBe(400);
    expect(await balance(eve.token)).toBe(10);
    // Events the platform does not act on are acknowledged.
    expect(
      (await deliver(stripe.signedEvent('customer.created', { id: 'cus_x', object: 'customer' }))).statusCode,
    ).toBe(200);
  });

  it('refuses, with a 4xx, a signed paid checkout with no amount or naming no user, and credits nothing', async () => {
    const fay = await signUp(t.app, t.db, 'fay-stripe@acme.example');
    const started = await purchase(fay.token, 30);
    const session = JSON.parse(stripe.payCheckout(sessionOf(started.body?.redirect_url as string)).payload).data.object;
    for (const [object, reason] of [
      [{ ...session, amount_total: 0 }, /amount/],
      [{ ...session, amount_total: null }, /amount/],
      [{ ...session, client_reference_id: 'not-a-user' }, /no user/],
      [{ ...session, client_reference_id: '00000000-0000-4000-8000-000000000000' }, /no user/],
    ] as const) {
      const answer = await deliver(stripe.signedEvent('checkout.session.completed', object));
      expect(answer.statusCode).toBe(400);
      expect(JSON.parse(answer.body).detail).toMatch(reason);
    }
    expect(await balance(fay.token)).toBe(10);
  });

  it('saves a card through the hosted setup page, then charges it; a declined card answers 402', async () => {
    const dan = await signUp(t.app, t.db, 'dan-stripe@acme.example');
    const setup = await call(t.app, 'POST', '/api/billing/create-customer-setup-session', { token: dan.token });
    expect(setup.body?.redirect_url).toMatch(/\/checkout\/cs_test_/);
    // Its notification alone saves the card (the browser may never come back).
    expect(
      (await deliver(stripe.completeSetup(sessionOf(setup.body?.redirect_url as string), '5555555555554444')))
        .statusCode,
    ).toBe(200);
    expect((await purchase(dan.token, 15)).body).toEqual({ new_balance: 25 });

    const fay = await signUp(t.app, t.db, 'fay-stripe@acme.example');
    // Stripe's page refuses 0002 when it is set up (no $50 for it); 0341 sets up and is declined when charged.
    await expect(saveCardOnStripePage(fay.token, '4000000000000002')).rejects.toThrow('Your card was declined.');
    expect(await balance(fay.token)).toBe(10);
    expect((await saveCardOnStripePage(fay.token, '4000000000000341')).status).toBe(200);
    expect(await balance(fay.token)).toBe(60);
    expect(await purchase(fay.token, 20)).toMatchObject({ status: 402, body: { detail: 'Your card was declined.' } });
    expect(await balance(fay.token)).toBe(60);
  });
});
