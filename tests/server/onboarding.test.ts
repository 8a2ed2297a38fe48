import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { onboarding } from '../../server/db/schema.ts';
import { balanceMicros } from '../../server/modules/credits/index.ts';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';

const t = withTestApp();
const base = '/api/atelier/onboarding';

const contact = {
  organization_name: '  Acme GmbH ',
  legal_name: 'Ada Lovelace',
  street_address: 'Hauptstraße 1',
  apt_suite: '',
  city: 'Berlin',
  province: 'Berlin',
  postal_code: '10115',
  vat_number: 'DE123456789',
};
const card = {
  card_number: '4242 4242 4242 4242',
  expiry_date: '12/35',
  security_code: '737',
  cardholder_name: 'Ada Lovelace',
  same_billing_address: true,
};

/** A registered account that has not been through onboarding (signUp leaves it inactive). */
async function newcomer(email: string) {
  const user = await signUp(t.app, t.db, email, { onboarded: false });
  const as = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    call(t.app, method, `${base}${path}`, { token: user.token, ...(body !== undefined && { body }), headers });
  return { ...user, as };
}

describe('registration onboarding', () => {
  it('takes a company account through country, contact, card and Start Free, then it is active with $50 more', async () => {
    const ada = await newcomer('ada@acme.example');
    expect((await ada.as('GET', '/form-data')).body).toEqual({ status: 'not_started', form_data: null });
    const countries = (await ada.as('GET', '/countries')).body?.countries as { id: number; name: string }[];
    expect(countries.length).toBeGreaterThan(240);
    expect(countries).toContainEqual({ id: 276, name: 'Germany', code: 'DE' });
    const names = countries.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect((await ada.as('GET', '/detect-country', undefined, { 'accept-language': 'fr;q=0.9,de-CH' })).body).toEqual({
      detected: true,
      country: { id: 756, name: 'Switzerland', code: 'CH' },
    });
    expect((await ada.as('GET', '/detect-country', undefined, { 'accept-language': 'fr' })).body).toEqual({
      detected: false,
      country: null,
    });

    expect((await ada.as('POST', '/start-free')).body).toEqual({
      success: false,
      message: 'Please complete the required steps first.',
      missing_steps: ['country', 'contact_information'],
    });
    expect((await ada.as('POST', '/save-user-country', { country: 999 })).status).toBe(400);
    expect((await ada.as('POST', '/save-user-country', { country: 276 })).body).toEqual({ success: true });
    expect((await ada.as('GET', '/form-data')).body).toEqual({
      status: 'in_progress',
      form_data: { country: { country_id: 276, name: 'Germany' }, contact_information: null },
    });

    expect((await ada.as('POST', '/save-contact-information', { ...contact, profile_type: 'Individual' })).status).toBe(
      409,
    );
    expect(await ada.as('POST', '/save-contact-information', { ...contact, organization_name: ' ' })).toMatchObject({
      status: 400,
      body: { detail: 'Organization name is required.' },
    });
    const saved = await ada.as('POST', '/save-contact-information', contact);
    expect(saved.body?.contact_information).toEqual({
      id: expect.any(String),
      profile_type: 'Organization',
      organization_name: 'Acme GmbH',
      legal_name: 'Ada Lovelace',
      street_address: 'Hauptstraße 1',
      apt_suite: null,
      city: 'Berlin',
      province: 'Berlin',
      postal_code: '10115',
      tax_id: null,
      vat_number: 'DE123456789',
      payment_information: null,
    });
    const contactId = (saved.body?.contact_information as { id: string }).id;

    const pay = (changes: Record<string, unknown>) =>
      ada.as('POST', '/save-payment-information', { ...card, contact_information_id: contactId, ...changes });
    expect(await pay({ contact_information_id: 'someone-else' })).toMatchObject({
      status: 404,
      body: { detail: 'Save your contact information first.' },
    });
    expect((await pay({ card_number: '4242 4242 4242 4241' })).body?.detail).toBe(
      'The card number is not valid. Please check it.',
    );
    expect((await pay({ card_number: '4242 4242 4242 4242 4242' })).body?.detail).toBe(
      'The card number must have 13 to 19 digits.',
    );
    expect((await pay({ expiry_date: '01/20' })).body?.detail).toBe('The card has expired.');
    const before = await balanceMicros(t.db, ada.id);
    const payment = await pay({});
    expect(payment.body?.payment_information).toEqual({
      id: expect.any(String),
      contact_information_id: contactId,
      card_last4: '4242',
      card_brand: 'visa',
      expiry_date: '12/35',
      cardholder_name: 'Ada Lovelace',
      same_billing_address: true,
      billing_country: 'Germany',
      billing_street_address: 'Hauptstraße 1',
      billing_apt_suite: null,
      billing_city: 'Berlin',
      billing_province: 'Berlin',
      billing_postal_code: '10115',
    });
    // A second card replaces the first; the free credit is granted once.
    await pay({ card_number: '5555 5555 5555 4444', same_billing_address: false, billing_city: ' Hamburg ' });
    expect((await balanceMicros(t.db, ada.id)) - before).toBe(50_000_000n);
    const [row] = await t.db.select().from(onboarding).where(eq(onboarding.userId, ada.id));
    // Ids and times are random digits that may hold '737' by chance: only the rest is searched.
    const stored = JSON.stringify(row)
      .replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, '')
      .replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '');
    for (const secret of ['4242424242424242', '4242 4242 4242 4242', '5555555555554444', '737'])
      expect(stored).not.toContain(secret);
    expect(row?.paymentInformation).toMatchObject({
      card_brand: 'mastercard',
      card_last4: '4444',
      billing_city: 'Hamburg',
    });

    expect((await call(t.app, 'GET', '/api/auth/me/extended', { token: ada.token })).body?.is_active).toBe(false);
    // Until then the account reaches only its sign-in, onboarding and settings.
    for (const [method, path] of [
      ['GET', '/api/conversations'],
      ['POST', '/api/conversations'],
      ['GET', '/api/secrets'],
      ['GET', '/api/keys'],
    ] as const)
      expect(
        await call(t.app, method, path, { token: ada.token, body: method === 'POST' ? {} : undefined }),
      ).toMatchObject({
        status: 403,
        body: { detail: 'Please complete registration onboarding first.' },
      });
    expect((await call(t.app, 'GET', '/api/settings', { token: ada.token })).status).not.toBe(403);
    expect((await ada.as('POST', '/start-free')).body).toEqual({
      success: true,
      message: 'Your account is active.',
      missing_steps: [],
    });
    expect((await call(t.app, 'GET', '/api/auth/me/extended', { token: ada.token })).body?.is_active).toBe(true);
    expect((await ada.as('GET', '/form-data')).body?.status).toBe('completed');
    expect((await call(t.app, 'GET', '/api/conversations', { token: ada.token })).status).toBe(200);
  });

  it('gives a personal account an Individual profile and names countries in the saved language', async () => {
    const solo = await signUp(t.app, t.db, 'solo@gmail.com', { personal: true, onboarded: false });
    const as = (method: string, path: string, body?: unknown) =>
      call(t.app, method, `${base}${path}`, { token: solo.token, ...(body !== undefined && { body }) });
    const saved = await as('POST', '/save-contact-information', contact);
    expect(saved.body?.contact_information).toMatchObject({ profile_type: 'Individual', organization_name: null });
    await call(t.app, 'POST', '/api/settings', { token: solo.token, body: { language: 'de' } });
    expect((await as('GET', '/countries')).body?.countries).toContainEqual({
      id: 276,
      name: 'Deutschland',
      code: 'DE',
    });
    await as('POST', '/save-user-country', { country: 250 });
    expect(((await as('GET', '/form-data')).body?.form_data as { country: unknown }).country).toEqual({
      country_id: 250,
      name: 'Frankreich',
    });
  });

  it('answers 404 for another provider, 401 without a sign-in, and keeps each account’s answers its own', async () => {
    const eve = await newcomer('eve@acme.example');
    expect((await call(t.app, 'GET', '/api/other/onboarding/form-data', { token: eve.token })).status).toBe(404);
    expect((await call(t.app, 'GET', `${base}/form-data`)).status).toBe(401);
    expect((await eve.as('GET', '/form-data')).body).toEqual({ status: 'not_started', form_data: null });
  });

  it('lets an account not active yet buy credits and read its billing history, and nothing else of billing', async () => {
    const eve = await newcomer('eve-billing@acme.example');
    const as = (method: string, path: string, body?: unknown) =>
      call(t.app, method, path, { token: eve.token, ...(body !== undefined && { body }) });
    // No card saved yet: refused by billing itself, not by the inactive account's gate.
    expect(await as('POST', '/api/auth/purchase-credits', { amount: 25 })).toMatchObject({ status: 400 });
    expect((await as('GET', '/api/auth/transactions/other')).status).toBe(200);
    expect((await as('GET', '/api/auth/transactions/conversation-groups')).status).toBe(200);
    expect((await as('GET', `/api/auth/transactions/category/${crypto.randomUUID()}?category=llm`)).status).toBe(404);
    expect((await as('GET', '/api/billing/credits')).status).toBe(403);
    expect((await as('POST', '/api/billing/create-checkout-session', { amount: 25 })).status).toBe(403);
  });
});

describe('registration onboarding in oss mode', () => {
  const oss = withTestApp({ APP_MODE: 'oss' });
  it('does not exist: the local user has no account to onboard', async () => {
    expect((await call(oss.app, 'GET', `${base}/countries`)).status).toBe(404);
  });
});
