import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';
import { startStripeServer } from '../support/stripe-server.ts';

// The $100 trial, claimed as an abuser would: generated card numbers that pass the checksum,
// cards the bank refuses, one person's address variants, many cards tried on one account, and
// the same card from many accounts at once. Only a card the payment provider accepts earns it,
// once per card and once per person.

const card = (card_number: string) => ({
  card_number,
  expiry_date: '12/34',
  security_code: '123',
  card_holder_name: 'Mallory Abuser',
  billing_address: '1 Main Street, Springfield',
  acceptTerms: true,
});
const balanceOf = async (app: Parameters<typeof call>[0], token: string) =>
  (await call(app, 'GET', '/api/billing/credits', { token })).body?.credits as number;

/** Card numbers that pass Luhn's checksum: what the old check accepted from any generator. */
function generatedNumber(seed: number) {
  const body = `4539${String(seed).padStart(11, '0')}`;
  for (let check = 0; check <= 9; check++) {
    const digits = `${body}${check}`;
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let digit = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    if (sum % 10 === 0) return digits;
  }
  throw new Error('unreachable');
}

describe('claiming the trial with the test payment provider', () => {
  const t = withTestApp();
  const claim = (token: string, body: Record<string, unknown>) =>
    call(t.app, 'POST', '/api/auth/claim', { token, body });

  it('earns nothing with a generated number or a card the bank declines, and then earns it with a good card', async () => {
    const mallory = await signUp(t.app, t.db, 'mallory@acme.example');
    expect(await claim(mallory.token, card(generatedNumber(1)))).toMatchObject({
      status: 400,
      body: { detail: expect.stringMatching(/accepts only test card numbers/) },
    });
    for (const [number, detail] of [
      ['4000 0000 0000 0002', 'Your card was declined.'],
      ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
    ])
      expect(await claim(mallory.token, card(number!))).toMatchObject({ status: 402, body: { detail } });
    expect(await balanceOf(t.app, mallory.token)).toBe(10);
    // A refused card claimed nothing: the account and the card stay free for a good one.
    expect((await claim(mallory.token, card('4242 4242 4242 4242'))).status).toBe(200);
    expect(await balanceOf(t.app, mallory.token)).toBe(110);
  });

  it('gives the trial once per person, whatever form of the address each account uses', async () => {
    const first = await signUp(t.app, t.db, 'grace.hopper@gmail.com', { personal: true });
    expect((await claim(first.token, card('5555 5555 5555 4444'))).status).toBe(200);
    for (const [variant, number] of [
      ['gracehopper+trial@gmail.com', '2223 0031 2200 3222'],
      ['Grace.Hopper+2@googlemail.com', '5200 8282 8282 8210'],
      ['g.r.a.c.e.hopper@gmail.com', '3782 822463 10005'],
    ]) {
      const again = await signUp(t.app, t.db, variant!, { personal: true });
      expect(await claim(again.token, card(number!))).toMatchObject({
        status: 409,
        body: { detail: 'Free credit has already been claimed with this email address (or another form of it).' },
      });
      expect(await balanceOf(t.app, again.token)).toBe(10);
    }
    // Another provider's dotted address is another mailbox, hence another person.
    const other = await signUp(t.app, t.db, 'grace.hopper@acme.example');
    expect((await claim(other.token, card('3714 496353 98431'))).status).toBe(200);
  });

  it('lets one account ask the bank about five cards an hour, no more', async () => {
    const tester = await signUp(t.app, t.db, 'card-tester@acme.example');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await claim(tester.token, card('4000 0000 0000 0002'))).status);
    expect(statuses).toEqual([402, 402, 402, 402, 402, 429]);
    expect((await claim(tester.token, card('6011 1111 1111 1117'))).status).toBe(429);
  });

  it('counts a card claimed from many accounts at once only once', async () => {
    const accounts = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => signUp(t.app, t.db, `racer-${n}@racing${n}.example`)),
    );
    const answers = await Promise.all(accounts.map((account) => claim(account.token, card('3566 0020 2036 0505'))));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const balances = await Promise.all(accounts.map((account) => balanceOf(t.app, account.token)));
    expect(balances.sort((a, b) => a - b)).toEqual([10, 10, 10, 10, 110]);
  });
});

describe('claiming the trial through Stripe', () => {
  const SECRET_KEY = 'sk_test_claims';
  let stripe: Awaited<ReturnType<typeof startStripeServer>>;
  beforeAll(async () => {
    stripe = await startStripeServer({ secretKey: SECRET_KEY, webhookSecret: 'whsec_claims' });
  });
  afterAll(() => stripe?.close());
  const t = withTestApp(() => ({
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: 'whsec_claims',
    STRIPE_API_URL: stripe.url,
  }));
  /** The claim page's setup session, the card typed on Stripe's page, and the session the page back names. */
  async function verifiedOnStripePage(token: string, cardNumber: string) {
    const setup = await call(t.app, 'POST', '/api/billing/create-customer-setup-session', {
      token,
      body: { return_to: 'claim' },
    });
    const sessionId = (setup.body?.redirect_url as string).split('/').at(-1) as string;
    const completed = stripe.completeSetup(sessionId, cardNumber);
    const back = new URL(stripe.returnUrl(sessionId));
    expect(back.pathname).toBe('/claim-credit');
    return { sessionId: back.searchParams.get('setup_session') as string, completed };
  }
  const claim = (token: string, sessionId: string) =>
    call(t.app, 'POST', '/api/auth/claim/card-setup', {
      token,
      body: { setup_session_id: sessionId, billing_address: '1 Main Street, Springfield', acceptTerms: true },
    });

  it('takes the card on Stripe’s page, which checks it with the bank, and never keeps it to pay with', async () => {
    const ada = await signUp(t.app, t.db, 'ada-trial@acme.example');
    // Atelier's card form is closed with Stripe: the number would reach Atelier.
    expect(
      await call(t.app, 'POST', '/api/auth/claim', { token: ada.token, body: card('4242 4242 4242 4242') }),
    ).toMatchObject({
      status: 400,
      body: { detail: expect.stringMatching(/^Cards are entered on Stripe's own page here/) },
    });
    // Stripe's page refuses what the bank declines: no session to claim with.
    await expect(verifiedOnStripePage(ada.token, '4000000000000002')).rejects.toThrow('Your card was declined.');
    const { sessionId, completed } = await verifiedOnStripePage(ada.token, '4242424242424242');
    const webhook = await t.app.http.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      payload: completed.payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': completed.signature },
    });
    expect(webhook.statusCode).toBe(200);
    expect((await claim(ada.token, sessionId)).body).toMatchObject({ success: true, new_balance: 110 });
    expect(await balanceOf(t.app, ada.token)).toBe(110);
    expect((await claim(ada.token, sessionId)).status).toBe(409);
    expect(stripe.requests.filter((request) => request.path === '/v1/payment_intents')).toEqual([]);
    // Verified, not kept: buying credits has no saved card and goes to Checkout.
    const bought = await call(t.app, 'POST', '/api/auth/purchase-credits', { token: ada.token, body: { amount: 5 } });
    expect(bought.body?.redirect_url).toMatch(/\/checkout\/cs_test_/);
    expect(JSON.stringify(stripe.requests)).not.toContain('4242424242424242');
  });

  it('lets a card claim once across accounts, told by Stripe’s fingerprint, and no one claim with another’s session', async () => {
    const bob = await signUp(t.app, t.db, 'bob-trial@acme.example');
    const cy = await signUp(t.app, t.db, 'cy-trial@acme.example');
    const dee = await signUp(t.app, t.db, 'dee-trial@example.org');
    const bobs = await verifiedOnStripePage(bob.token, '5555555555554444');
    expect(await claim(cy.token, bobs.sessionId)).toMatchObject({ status: 404 });
    expect((await claim(bob.token, bobs.sessionId)).status).toBe(200);
    // The same card, set up again by other accounts at once: none of them gets the $100.
    const again = await Promise.all([cy, dee].map((user) => verifiedOnStripePage(user.token, '5555555555554444')));
    const answers = await Promise.all([cy, dee].map((user, i) => claim(user.token, again[i]?.sessionId as string)));
    expect(answers.map((answer) => [answer.status, answer.body?.detail])).toEqual([
      [409, 'This card has already been used to claim free credit.'],
      [409, 'This card has already been used to claim free credit.'],
    ]);
    expect(await balanceOf(t.app, cy.token)).toBe(10);
  });
});
