import { describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { saveCardThroughOnboarding, signUp } from '../support/conversations.ts';

// Purchases with the test payment provider (no STRIPE_SECRET_KEY): the documented test cards
// and their outcomes, end to end through onboarding's card step, the purchase and the history.

const t = withTestApp();

const purchase = (token: string | undefined, amount: number) =>
  call(t.app, 'POST', '/api/auth/purchase-credits', { ...(token && { token }), body: { amount } });
const balance = async (token: string) =>
  (await call(t.app, 'GET', '/api/billing/credits', { token })).body?.credits as number;
const otherTransactions = async (token: string) =>
  (await call(t.app, 'GET', '/api/auth/transactions/other', { token })).body?.transactions as {
    description: string;
    transaction_type: string;
    status: string;
    amount: number;
  }[];

describe('buying credits with the test payment provider', () => {
  it('charges the saved test card, credits the amount rounded to cents and lists the purchase', async () => {
    // The test provider has no hosted pages: the profile offers no card setup.
    expect((await call(t.app, 'GET', '/api/options/config')).body?.HOSTED_PAYMENTS).toBe(false);
    const ada = await signUp(t.app, t.db, 'ada-buys@acme.example');
    expect((await purchase(ada.token, 25)).body).toEqual({
      detail: 'No payment method is saved yet. Add a card under Payment method on your profile, then buy credits.',
    });
    expect((await saveCardThroughOnboarding(t.app, ada.token, '4242 4242 4242 4242')).status).toBe(200);
    // signUp's $10 and the $50 for adding payment details.
    expect(await balance(ada.token)).toBe(60);

    const bought = await purchase(ada.token, 25.004);
    expect(bought).toMatchObject({ status: 200, body: { new_balance: 85 } });
    expect(await balance(ada.token)).toBe(85);
    expect((await otherTransactions(ada.token))[0]).toMatchObject({
      description: 'Purchase of $25.00 (test payment)',
      transaction_type: 'purchase',
      status: 'completed',
      amount: 25,
    });
  });

  it('refuses amounts under $5 and answers a declined card with its reason, listed as failed, balance unchanged', async () => {
    const bob = await signUp(t.app, t.db, 'bob-declined@acme.example');
    // As on Stripe: 0002 is refused when saved, 0341 is saved and declined when charged.
    expect(await saveCardThroughOnboarding(t.app, bob.token, '4000 0000 0000 0002')).toMatchObject({
      status: 402,
      body: { detail: 'Your card was declined.' },
    });
    expect((await saveCardThroughOnboarding(t.app, bob.token, '4000 0000 0000 0341')).status).toBe(200);
    expect((await purchase(bob.token, 0)).status).toBe(422);
    expect((await purchase(bob.token, 4.994)).body).toEqual({ detail: 'Amount must be at least $5.00' });

    const declined = await purchase(bob.token, 30);
    expect(declined).toMatchObject({ status: 402, body: { detail: 'Your card was declined.' } });
    expect(await balance(bob.token)).toBe(60);
    expect((await otherTransactions(bob.token))[0]).toMatchObject({
      description: 'Purchase of $30.00: Your card was declined.',
      transaction_type: 'purchase',
      status: 'failed',
      amount: 30,
    });

    // Stripe's other declining cards are refused when saved, each with its reason; the card saved stays.
    for (const [number, detail] of [
      ['4000000000009995', 'Your card has insufficient funds.'],
      ['4000000000000069', 'Your card has expired.'],
      ['4000000000000127', "Your card's security code is incorrect."],
    ])
      expect(await saveCardThroughOnboarding(t.app, bob.token, number!)).toMatchObject({
        status: 402,
        body: { detail },
      });
    expect((await purchase(bob.token, 5)).body).toEqual({ detail: 'Your card was declined.' });
  });

  it('charges a purchase once however often it is sent with its Idempotency-Key, at once or retried', async () => {
    const cy = await signUp(t.app, t.db, 'cy-retries@acme.example');
    expect((await saveCardThroughOnboarding(t.app, cy.token, '4242 4242 4242 4242')).status).toBe(200);
    const buy = (key: string, amount = 25) =>
      call(t.app, 'POST', '/api/auth/purchase-credits', {
        token: cy.token,
        body: { amount },
        headers: { 'Idempotency-Key': key },
      });
    // A double submit and a proxy's retry of the same purchase: all answered, charged once.
    const answers = await Promise.all([buy('buy-1'), buy('buy-1'), buy('buy-1')]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect((await buy('buy-1')).body).toEqual({ new_balance: 85 });
    expect(await balance(cy.token)).toBe(85);
    const purchases = (await otherTransactions(cy.token)).filter((row) => row.transaction_type === 'purchase');
    expect(purchases.filter((row) => row.description.startsWith('Purchase of $25.00'))).toHaveLength(1);
    // The same key for another amount is another purchase's key: refused, nothing charged.
    expect(await buy('buy-1', 30)).toMatchObject({
      status: 409,
      body: { detail: expect.stringContaining('Idempotency-Key') },
    });
    expect(await balance(cy.token)).toBe(85);
    // A new key is a new purchase; another user's same key is theirs.
    expect((await buy('buy-2')).body).toEqual({ new_balance: 110 });
    const dee = await signUp(t.app, t.db, 'dee-retries@acme.example');
    expect((await saveCardThroughOnboarding(t.app, dee.token, '4242 4242 4242 4242')).status).toBe(200);
    const theirs = await call(t.app, 'POST', '/api/auth/purchase-credits', {
      token: dee.token,
      body: { amount: 25 },
      headers: { 'Idempotency-Key': 'buy-1' },
    });
    expect(theirs.body).toEqual({ new_balance: 85 });
    expect(await balance(cy.token)).toBe(110);
    // A declined purchase retried is declined once, listed once.
    const eve = await signUp(t.app, t.db, 'eve-retries@acme.example');
    expect((await saveCardThroughOnboarding(t.app, eve.token, '4000 0000 0000 0341')).status).toBe(200);
    const declined = () =>
      call(t.app, 'POST', '/api/auth/purchase-credits', {
        token: eve.token,
        body: { amount: 30 },
        headers: { 'Idempotency-Key': 'eve-1' },
      });
    expect((await Promise.all([declined(), declined()])).map((answer) => answer.status)).toEqual([402, 402]);
    expect((await otherTransactions(eve.token)).filter((row) => row.status === 'failed')).toHaveLength(1);
    // The key's shape is checked: printable ASCII, at most 255 characters.
    const badKey = await call(t.app, 'POST', '/api/auth/purchase-credits', {
      token: cy.token,
      body: { amount: 25 },
      headers: { 'Idempotency-Key': 'x'.repeat(256) },
    });
    expect(badKey.status).toBe(422);
    expect(await balance(cy.token)).toBe(110);
  });

  it('accepts only documented test card numbers and has no hosted pages', async () => {
    const eve = await signUp(t.app, t.db, 'eve-real-card@acme.example');
    // A valid card number that is not one of the test cards.
    expect((await saveCardThroughOnboarding(t.app, eve.token, '4111 1111 1111 1111')).body).toEqual({
      detail:
        'The test payment provider accepts only test card numbers, such as 4242 4242 4242 4242. Real cards need Stripe (STRIPE_SECRET_KEY).',
    });
    const checkout = await call(t.app, 'POST', '/api/billing/create-checkout-session', {
      token: eve.token,
      body: { amount: 25 },
    });
    expect(checkout.status).toBe(501);
    expect(checkout.body?.detail).toMatch(/Hosted checkout needs Stripe/);
    expect((await call(t.app, 'POST', '/api/billing/create-customer-setup-session', { token: eve.token })).status).toBe(
      501,
    );
    expect(
      (
        await call(t.app, 'POST', '/api/billing/webhook', {
          body: { id: 'evt_1', type: 'checkout.session.completed', data: { object: {} } },
        })
      ).status,
    ).toBe(501);
  });

  it('asks for a sign-in on every purchase operation', async () => {
    expect((await purchase(undefined, 25)).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/billing/create-checkout-session', { body: { amount: 25 } })).status).toBe(
      401,
    );
    expect((await call(t.app, 'POST', '/api/billing/create-customer-setup-session')).status).toBe(401);
  });
});
