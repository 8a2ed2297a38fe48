import { describe, expect, it } from 'vitest';
import { cardClaims } from '../../server/db/schema.ts';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';

const t = withTestApp();

const claim = (token: string | undefined, body: Record<string, unknown>) =>
  call(t.app, 'POST', '/api/auth/claim', { ...(token && { token }), body });
const form = (card_number: string) => ({
  card_number,
  expiry_date: '12/34',
  security_code: '123',
  card_holder_name: 'Ada Lovelace',
  billing_address: 'Hauptstraße 1, 10115 Berlin',
  acceptTerms: true,
});

describe('claiming the trial credit with a card', () => {
  it('grants $100 for a valid card, once per card and once per account, keeping only a fingerprint', async () => {
    const ada = await signUp(t.app, t.db, 'ada-claims@acme.example');
    const claimed = await claim(ada.token, form('4242 4242 4242 4242'));
    expect(claimed.body).toEqual({
      success: true,
      message: 'You received $100 of free credit, valid for 90 days.',
      new_balance: 110,
    });
    // Another card on the same account: the $100 came already, and the card stays unclaimed.
    expect((await claim(ada.token, form('5555 5555 5555 4444'))).body).toEqual({
      detail: 'This account has already received its $100 of free credit.',
    });
    const bob = await signUp(t.app, t.db, 'bob-claims@acme.example');
    expect((await claim(bob.token, form('4242424242424242'))).body).toEqual({
      detail: 'This card has already been used to claim free credit.',
    });
    expect((await claim(bob.token, form('5555 5555 5555 4444'))).status).toBe(200);

    const stored = JSON.stringify(await t.db.select().from(cardClaims));
    for (const number of ['4242424242424242', '5555555555554444']) expect(stored).not.toContain(number);
  });

  it('checks the form as the spec says', async () => {
    const eve = await signUp(t.app, t.db, 'eve-claims@acme.example');
    const detail = async (body: Record<string, unknown>) => {
      const answer = await claim(eve.token, body);
      expect(answer.status).toBe(422);
      return answer.body?.detail as { msg: string; loc: string[] }[];
    };
    expect((await detail(form('4242 4242 4242 4241')))[0]?.msg).toBe('Please enter a valid card number');
    expect((await detail(form('4242 4242 42')))[0]?.loc).toEqual(['body', 'card_number']);
    expect((await detail({ ...form('4242 4242 4242 4242'), acceptTerms: false }))[0]?.loc).toEqual([
      'body',
      'acceptTerms',
    ]);
    expect((await detail({ ...form('4242 4242 4242 4242'), billing_address: '  ' }))[0]?.loc).toEqual([
      'body',
      'billing_address',
    ]);
    expect((await detail({ ...form('4242 4242 4242 4242'), expiry_date: '13/30' }))[0]?.loc).toEqual([
      'body',
      'expiry_date',
    ]);
    expect((await claim(eve.token, { ...form('4242 4242 4242 4242'), expiry_date: '01/20' })).body).toEqual({
      detail: 'The card has expired.',
    });
    expect((await claim(undefined, form('4242 4242 4242 4242'))).status).toBe(401);
  });
});
