import { describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';
import { newestMailTo } from '../support/mail.ts';

const t = withTestApp();

const agreementToken = (text: string) => /\/usage-agreement\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';
const sign = (token: string) => call(t.app, 'POST', '/api/auth/usage-agreement/sign', { body: { token } });
const balance = async (token: string) =>
  (await call(t.app, 'GET', '/api/billing/credits', { token })).body?.credits as number;

describe('the usage agreement of company accounts', () => {
  it('mails a link to the company email; signing it marks the account and grants $100 once', async () => {
    const ada = await signUp(t.app, t.db, 'ada-agreement@acme.example');
    const sent = await call(t.app, 'POST', '/api/auth/usage-agreement', { token: ada.token });
    expect(sent.body).toEqual({ email: 'ada-agreement@acme.example' });
    const mail = await newestMailTo(t.db, 'ada-agreement@acme.example');
    expect(mail.subject).toBe('Your Atelier usage agreement');
    const token = agreementToken(mail.text);
    expect(token).not.toBe('');

    // One mail a minute.
    const again = await call(t.app, 'POST', '/api/auth/usage-agreement', { token: ada.token });
    expect(again.status).toBe(429);
    expect(again.body?.detail).toMatch(
      /^The usage agreement was sent a moment ago\. Please try again in \d+ seconds\.$/,
    );

    expect(await balance(ada.token)).toBe(10);
    expect((await sign(token)).body).toEqual({
      email: 'ada-agreement@acme.example',
      signed_agreement: true,
      credit_granted: 100,
    });
    expect(await balance(ada.token)).toBe(110);
    const me = await call(t.app, 'GET', '/api/auth/me/extended', { token: ada.token });
    expect(me.body?.signed_agreement).toBe(true);
    // The same link again: the same answer, nothing more granted.
    expect((await sign(token)).body?.credit_granted).toBe(0);
    expect(await balance(ada.token)).toBe(110);
    expect((await call(t.app, 'POST', '/api/auth/usage-agreement', { token: ada.token })).body).toEqual({
      detail: 'You have already signed the usage agreement.',
    });
  });

  it('is for company accounts only, and refuses a link that is not one', async () => {
    const bob = await signUp(t.app, t.db, 'bob-agreement@gmail.com', { personal: true });
    expect((await call(t.app, 'POST', '/api/auth/usage-agreement', { token: bob.token })).body).toEqual({
      detail: 'The usage agreement is for company accounts: register with your company email.',
    });
    const refused = await sign('A'.repeat(43));
    expect(refused.status).toBe(400);
    expect(refused.body?.detail).toMatch(/invalid or has expired/);
    expect((await call(t.app, 'POST', '/api/auth/usage-agreement')).status).toBe(401);
  });
});
