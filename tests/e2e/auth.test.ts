import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { browserSuite, pagesWithoutErrors } from '../support/browser-suite.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';
import { mailedLink } from '../support/mail.ts';
import type { RunningServer } from '../support/server.ts';
import { TOKEN_KEY } from '../../src/api/token-store.ts';
import { saveBerlinAddress } from '../support/onboarding-page.ts';

const PASSWORD = 'correct horse battery';

/** Tabs whose uncaught errors fail the test. */
const openPage = pagesWithoutErrors();

const storedTokens = (page: Page) =>
  page.evaluate((key) => ({ local: localStorage.getItem(key), session: sessionStorage.getItem(key) }), TOKEN_KEY);

/** Someone who already has an account (registered through the API, as another browser would). */
async function registerThroughApi(server: RunningServer, email: string) {
  const response = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Grace Hopper', email, password: PASSWORD, is_personal: true }),
  });
  expect(response.status).toBe(200);
}

/** An API call as another browser would make it. */
const post = (server: RunningServer, path: string, body: unknown, token?: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });

/** A personal account onboarded without a card (another browser did it); answers its token. */
async function onboardedWithoutCard(server: RunningServer, email: string, legalName: string): Promise<string> {
  await registerThroughApi(server, email);
  const login = await post(server, '/api/auth/login', { email, password: PASSWORD });
  const { access_token: token } = (await login.json()) as { access_token: string };
  await post(server, '/api/atelier/onboarding/save-user-country', { country: 826 }, token);
  await post(
    server,
    '/api/atelier/onboarding/save-contact-information',
    { legal_name: legalName, street_address: '1 Navy Way', city: 'London', province: 'London', postal_code: 'N1' },
    token,
  );
  expect((await (await post(server, '/api/atelier/onboarding/start-free', {}, token)).json()).success).toBe(true);
  return token;
}

async function openSignIn(page: Page, server: RunningServer) {
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('banner').getByRole('button', { name: 'Sign in', exact: true }).click();
  return page.getByRole('dialog', { name: 'Sign In' });
}

/** Waits until a field's value satisfies `done` (a value that arrives from the server). */
async function waitForValue(field: ReturnType<Page['getByLabel']>, done: (value: string) => boolean) {
  for (let i = 0; i < 200; i++) {
    if (done(await field.inputValue())) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the field's value stayed ${await field.inputValue()}`);
}

describe.skipIf(browserMissing())('signing up, in and out in the browser', () => {
  // A priced model name: the agent's calls cost credits.
  const llm = new FakeLlm('gpt-4o');
  const suite = browserSuite({ mode: 'saas', llm });

  it('takes a company sign-up through onboarding ($50 for the card), the usage agreement ($100), a $25 purchase and usage by conversation', async () => {
    const { server, browser } = suite;
    const email = `ada.onboarding.${Date.now()}@acme-e2e.dev`;
    const page = await openPage(browser);
    await page.goto(`${server.url}/dashboard`);
    // A prompt typed before signing up is still there once the account is ready.
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill('Build a bakery site');
    await page.getByRole('banner').getByRole('button', { name: 'Sign up', exact: true }).click();
    const signUp = page.getByRole('dialog', { name: 'Create your account' });
    await signUp.getByLabel('Full Name').fill('Ada Lovelace');
    await signUp.getByLabel('Email Address').fill(email);
    // The password's rule is shown before submitting, and the server's refusal is a sentence.
    await signUp.getByText('At least 8 characters.').waitFor();
    await signUp.getByLabel('Password').fill('short');
    await signUp.getByRole('button', { name: 'Create Account & Claim FREE Credits' }).click();
    await signUp.getByRole('alert').getByText('Password must be at least 8 characters.').waitFor();
    await signUp.getByLabel('Password').fill(PASSWORD);
    await signUp.getByRole('button', { name: 'Create Account & Claim FREE Credits' }).click();
    await page.waitForURL('**/registration-onboarding');
    // The mailed link, opened before onboarding is done, says that it worked (it is not bounced).
    await page.goto(`${server.url}${await mailedLink(server, email)}`);
    await page.getByRole('status').getByText(`Your email address ${email} is verified.`).waitFor();
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.waitForURL('**/registration-onboarding');

    // Step 1: the country, detected from the browser's language (en-US) until one is chosen.
    await page.getByText('Step 1 of 2').waitFor();
    const country = page.getByLabel('Country');
    await waitForValue(country, (value) => value === '840');
    await country.selectOption({ label: 'Germany' });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Agree & continue' }).click();

    // Step 2: Start Free says what is missing; the card waits for the contact information.
    await page.getByText('Step 2 of 2').waitFor();
    expect(await page.getByRole('button', { name: 'Add payment method' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Start Free' }).click();
    const missing = page.getByRole('dialog', { name: 'Complete Required Steps' });
    await missing.getByText('Add your contact information').waitFor();
    await missing.getByRole('button', { name: 'Got it' }).click();

    await page.getByRole('button', { name: 'Add name and address' }).click();
    const contact = page.getByRole('dialog', { name: 'Contact information' });
    expect(await contact.getByLabel('Profile type').inputValue()).toBe('Organization');
    await contact.getByLabel('Organization name').fill('Acme GmbH');
    await saveBerlinAddress(contact);
    await page.getByText('Acme GmbH, Ada Lovelace, Hauptstraße 1').waitFor();
    // A reload keeps the person on step 2, with what they saved.
    await page.reload();
    await page.getByText('Step 2 of 2').waitFor();
    await page.getByText('Acme GmbH, Ada Lovelace, Hauptstraße 1').waitFor();

    // The server checks the card: a wrong checksum comes back in the Error dialog.
    const card = page.getByRole('dialog', { name: 'Add credit or debit card' });
    const fillCard = async (number: string) => {
      await page.getByRole('button', { name: 'Add payment method' }).click();
      await card.getByLabel('Card number').fill(number);
      await card.getByLabel('Expiry (MM/YY)').fill('12/35');
      await card.getByLabel('Security code').fill('737');
      await card.getByLabel('Cardholder name').fill('Ada Lovelace');
    };
    await fillCard('4242 4242 4242 4241');
    await card.getByRole('button', { name: 'Save card' }).click();
    const error = page.getByRole('dialog', { name: 'Error' });
    await error.getByText('The card number is not valid. Please check it.').waitFor();
    await error.getByRole('button', { name: 'OK' }).click();
    await fillCard('4242 4242 4242 4242');
    // Unticking 'the same' pre-fills the billing address from the contact address and the country.
    await card.getByRole('checkbox', { name: 'Billing address and legal address are the same' }).click();
    expect(await card.getByLabel('Billing country/region').inputValue()).toBe('Germany');
    expect(await card.getByLabel('Billing city').inputValue()).toBe('Berlin');
    await card.getByRole('checkbox', { name: 'Billing address and legal address are the same' }).click();
    expect(await card.getByLabel('Billing city').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await card.getByRole('button', { name: 'Save card' }).click();
    await page.getByText('visa •••• 4242, expires 12/35').waitFor();

    await page.getByRole('button', { name: 'Start Free' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Message to the agent' }).inputValue()).toBe('Build a bakery site');
    // The header's balance: green from $1.
    const indicator = page.getByLabel('Credits: $50.00');
    await indicator.waitFor();
    expect(await indicator.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(6, 118, 71)');
    const token = (await storedTokens(page)).local ?? '';
    const credits = await fetch(`${server.url}/api/auth/credits`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await credits.json()) as { balance: number }).balance).toBe(50);

    // A company account with a card: only the usage-agreement banner. The agreement goes to the
    // company email; its page signs it, for $100 more.
    const agreementBanner = page.getByRole('region', { name: 'Free credit for the usage agreement' });
    await agreementBanner.getByText(`We send it to your company email, ${email}.`, { exact: false }).waitFor();
    expect(await page.getByRole('region', { name: 'Free credit for payment details' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Free credit with a company email' }).count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await agreementBanner.getByRole('button', { name: 'Send me the agreement' }).click();
    await agreementBanner.getByText(`The agreement is on its way to ${email}.`).waitFor();
    await page.goto(`${server.url}${await mailedLink(server, email, '/usage-agreement')}`);
    await page.getByRole('heading', { name: 'Atelier usage agreement' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'I agree and sign' }).click();
    await page.getByText(`Signed for ${email}. $100 of free credit was added to your account.`).waitFor();
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.getByLabel('Credits: $150.00').waitFor();
    expect(await page.getByRole('region', { name: 'Free credit for the usage agreement' }).count()).toBe(0);

    // The profile: who, the balance, and the grant in the billing history.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    expect(await page.getByText(email).count()).toBeGreaterThan(0);
    const other = page.getByRole('table', { name: 'Other transactions' });
    const grant = other.getByRole('row', { name: /Free credit for adding payment details/ });
    await grant.waitFor();
    expect(await grant.innerText()).toMatch(/Completed\s+\+\$50\.0000/);
    // The edit form saves the name; the email is shown, not edited.
    const profileForm = page.getByRole('form', { name: 'Edit profile' });
    expect(await profileForm.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    await profileForm.getByLabel('Full name').fill('Ada King');
    await profileForm.getByRole('button', { name: 'Save' }).click();
    await profileForm.getByText('Saved.').waitFor();
    await page.getByText('Ada King', { exact: true }).first().waitFor();
    const costs = page.getByRole('region', { name: 'Conversation costs' });
    await costs.getByText('Nothing here yet.').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Buy $25 with the test card saved in onboarding.
    await page.getByRole('button', { name: 'Buy Credits' }).click();
    const buy = page.getByRole('dialog', { name: 'Buy Credits' });
    const amount = buy.getByLabel('Amount (USD)');
    expect(await amount.inputValue()).toBe('25.00');
    await buy.getByText('Enter an amount of at least $5').waitFor();
    await amount.fill('4');
    await buy.getByText('Amount must be at least $5.00').waitFor();
    expect(await buy.getByRole('button', { name: 'Buy' }).isDisabled()).toBe(true);
    await amount.fill('2a5');
    expect(await amount.inputValue()).toBe('25');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await buy.getByRole('button', { name: 'Buy' }).click();
    await buy.waitFor({ state: 'detached' });
    await page.getByLabel('Credits: $175.00').waitFor();
    const purchase = other.getByRole('row', { name: /Purchase of \$25\.00 \(test payment\)/ });
    await purchase.waitFor();
    expect(await purchase.innerText()).toMatch(/Completed\s+\+\$25\.0000/);

    // The agent's model calls in a conversation are charged, and show under it (conversations wait for a verified email).
    await page.goto(`${server.url}${await mailedLink(server, email)}`);
    await page.getByText(`Your email address ${email} is verified.`, { exact: false }).waitFor();
    await page.goto(`${server.url}/profile`);
    llm.enqueue(
      reply.text('Billing check', { when: withoutTools }),
      reply.toolCall(
        'finish',
        { message: 'Done.', task_completed: 'true' },
        { when: withTools, usage: { prompt_tokens: 100_000, completion_tokens: 1_000 } },
      ),
    );
    const created = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ initial_user_msg: 'What does this cost?' }),
    });
    expect(created.status).toBe(200);
    const balance = async () =>
      (
        (await (
          await fetch(`${server.url}/api/billing/credits`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { credits: number }
      ).credits;
    // 100,000 prompt tokens and 1,000 completion tokens of gpt-4o: $0.26, plus the title's call.
    for (let waited = 0; (await balance()) > 174.74 && waited < 60_000; waited += 250)
      await new Promise((resolve) => setTimeout(resolve, 250));
    // The conversation open, the header shows its cost beside the balance, with usage's 4 decimals.
    const { conversation_id: conversationId } = (await created.json()) as { conversation_id: string };
    await page.goto(`${server.url}/conversations/${conversationId}`);
    await page
      .getByRole('banner')
      .getByText(/^This conversation: \$0\.2\d{3}$/)
      .waitFor();
    // A stale token on the conversation's link: asked to sign in there (retrying cannot help), and back on it after.
    await page.evaluate((key) => {
      localStorage.setItem(key, 'a-token-of-another-day');
      sessionStorage.setItem(key, 'a-token-of-another-day');
    }, TOKEN_KEY);
    await page.reload();
    await page.getByText('Sign in to open this conversation.').waitFor();
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await page.getByRole('alert').getByRole('button', { name: 'Sign in' }).click();
    const signIn = page.getByRole('dialog', { name: 'Sign In' });
    await signIn.getByLabel('Email').fill(email);
    await signIn.getByLabel('Password').fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign In' }).click();
    await page
      .getByRole('banner')
      .getByText(/^This conversation: \$0\.2\d{3}$/)
      .waitFor();
    expect(new URL(page.url()).pathname).toBe(`/experiment/conversations/${conversationId}`);
    // A model call charged while the conversation is open: the server pushes the new balance on
    // the socket, and the header shows it without reading the user again.
    const headerCredits = page.getByRole('banner').getByLabel(/^Credits: /);
    const shownBefore = await headerCredits.getAttribute('aria-label');
    const userReads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/auth/me')) userReads.push(request.url());
    });
    llm.enqueue(
      reply.toolCall(
        'finish',
        { message: 'Charged again.', task_completed: 'true' },
        // 4,000 prompt tokens of gpt-4o: $0.01, enough to move the header's cents.
        { when: withTools, usage: { prompt_tokens: 4_000, completion_tokens: 0 } },
      ),
    );
    const box = page.getByRole('textbox', { name: 'Message to the agent' });
    await box.fill('And this?');
    await box.press('Enter');
    await expect.poll(() => headerCredits.getAttribute('aria-label'), { timeout: 60_000 }).not.toBe(shownBefore);
    expect(userReads).toEqual([]);
    await page.goto(`${server.url}/profile`);
    await costs.waitFor();
    expect(
      await page
        .getByRole('banner')
        .getByText(/This conversation/)
        .count(),
    ).toBe(0);
    const group = costs.getByRole('group');
    await group.waitFor();
    expect(await group.locator('summary').innerText()).toMatch(/Billing check\s+\$0\.27/);
    await group.locator('summary').click();
    const chat = group.getByRole('table', { name: 'Chat' });
    await chat.waitFor();
    expect(await chat.getByRole('row').count()).toBeGreaterThanOrEqual(2);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // Deleted, the conversation's costs stay under a name in the reader's language.
    const deleted = await fetch(`${server.url}/api/conversations/${conversationId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(deleted.status).toBe(200);
    await page.reload();
    await group.waitFor();
    expect(await group.locator('summary').innerText()).toMatch(/^Deleted conversation\s+\$0\.27/);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.close();
  }, 120_000);

  it('lets an account that skipped the card add one on the profile, from the banner, then buy credits', async () => {
    const { server, browser } = suite;
    const token = await onboardedWithoutCard(server, `hedy.card.${Date.now()}@gmail.com`, 'Hedy Lamarr');

    const page = await openPage(browser);
    await page.goto(`${server.url}/`);
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [TOKEN_KEY, token] as const);
    await page.goto(`${server.url}/dashboard`);
    // The banner's way to the card is the profile's card form, not onboarding (which an active account has left).
    await page
      .getByRole('region', { name: 'Free credit for payment details' })
      .getByRole('link', { name: 'Add payment details' })
      .click();
    await page.waitForURL('**/profile');
    await page.getByText('No card saved yet: add one to buy credits.').waitFor();
    const balanceBefore = await page
      .getByRole('banner')
      .getByLabel(/^Credits: /)
      .getAttribute('aria-label');
    await page.getByRole('button', { name: 'Add a card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add credit or debit card' });
    const fill = async (number: string) => {
      await dialog.getByLabel('Card number').fill(number);
      await dialog.getByLabel('Expiry (MM/YY)').fill('12/35');
      await dialog.getByLabel('Security code').fill('123');
      await dialog.getByLabel('Cardholder name').fill('Hedy Lamarr');
      await dialog.getByRole('button', { name: 'Save card' }).click();
    };
    // Refused as Stripe refuses it when saved: said in the dialog, what was typed kept.
    await fill('4000 0000 0000 0002');
    await dialog.getByRole('alert').getByText('Your card was declined.').waitFor();
    expect(await dialog.getByLabel('Cardholder name').inputValue()).toBe('Hedy Lamarr');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await fill('4242 4242 4242 4242');
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Visa card ending in 4242').waitFor();
    // The card earned its free credit once, and buying now charges it.
    await page
      .getByRole('banner')
      .getByLabel(/^Credits: /)
      .and(page.getByLabel(balanceBefore ?? ''))
      .waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Buy Credits' }).click();
    const buy = page.getByRole('dialog', { name: 'Buy Credits' });
    await buy.getByRole('button', { name: 'Buy' }).click();
    await buy.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Replace the card' }).waitFor();
    await page.close();
  });

  it('shows a personal account its banners, keeps a dismissal for the session and claims the $100 trial with a card', async () => {
    const { server, browser } = suite;
    const email = `grace.trial.${Date.now()}@gmail.com`;
    // Onboarded without a card, as another browser would have done it.
    const token = await onboardedWithoutCard(server, email, 'Grace Hopper');

    const page = await openPage(browser);
    await page.goto(`${server.url}/`);
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [TOKEN_KEY, token] as const);
    await page.goto(`${server.url}/dashboard`);
    const companyEmail = page.getByRole('region', { name: 'Free credit with a company email' });
    const paymentDetails = page.getByRole('region', { name: 'Free credit for payment details' });
    await companyEmail.waitFor();
    await paymentDetails.waitFor();
    expect(await page.getByRole('region', { name: 'Free credit for the usage agreement' }).count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // Registering with a company email starts a new account: the sign-up dialog.
    await companyEmail.getByRole('button', { name: 'Register with Company Email' }).click();
    const signUp = page.getByRole('dialog', { name: 'Create your account' });
    await signUp.getByLabel('Full Name').fill('Grace Hopper');
    await signUp.getByLabel('Email Address').fill(`grace.again.${Date.now()}@gmail.com`);
    await signUp.getByLabel('Password').fill(PASSWORD);
    await signUp.getByRole('button', { name: 'Create Account & Claim FREE Credits' }).click();
    // A personal address again: choosing the company email empties the field and puts the cursor in it.
    await page
      .getByRole('dialog', { name: 'Personal Email Detected' })
      .getByRole('button', { name: 'Register with Company Email' })
      .click();
    await page.getByRole('dialog', { name: 'Personal Email Detected' }).waitFor({ state: 'detached' });
    expect(await signUp.getByLabel('Email Address').inputValue()).toBe('');
    expect(await signUp.getByLabel('Email Address').evaluate((field) => field === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await companyEmail.getByRole('button', { name: 'Dismiss' }).click();
    await companyEmail.waitFor({ state: 'detached' });
    await page.reload();
    await paymentDetails.waitFor();
    expect(await companyEmail.count()).toBe(0);

    await paymentDetails.getByRole('link', { name: 'Or verify a card for the $100 trial' }).click();
    await page.waitForURL('**/claim-credit');
    await page.getByRole('heading', { name: 'Claim your free credit' }).waitFor();
    const startFree = page.getByRole('button', { name: 'Start free' });
    await startFree.click();
    for (const message of [
      'Card number is required',
      'Expiry date is required',
      'Security code is required',
      'Card holder name is required',
      'Billing address is required',
      'You must accept the terms and conditions',
    ])
      await page.getByText(message).waitFor();
    await page.getByLabel('Card number').fill('4242 4242 4242');
    expect(await page.getByText('Card number is required').count()).toBe(0);
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Card holder name').fill('Grace Hopper');
    await page.getByLabel('Billing address').fill('1 Navy Way, London');
    await page.getByRole('checkbox', { name: 'I accept the terms and conditions' }).click();
    await startFree.click();
    await page.getByText('Please enter a valid card number').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // The bank's refusal is shown as the payment provider words it; a good card then earns the trial.
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await startFree.click();
    await page.getByText('Your card was declined.').waitFor();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await startFree.click();
    await page.waitForURL('**/dashboard');
    await page.getByLabel('Credits: $100.00').waitFor();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.close();
  }, 60_000);

  it('follows a referral link: keeps the code, counts the click and binds the account registered afterwards', async () => {
    const { server, browser } = suite;
    const stamp = Date.now();
    const partner = `partner.${stamp}@partners.example`;
    const post = async (path: string, body: unknown, token?: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      });
    await post('/api/affiliate/register', {
      full_name: 'Partner',
      email: partner,
      password: PASSWORD,
      whatsapp: '+1 2025550123',
    });
    expect((await server.admin('affiliate:verify', partner)).code).toBe(0);
    const { access_token: affiliateToken } = (await (
      await post('/api/affiliate/login', { email: partner, password: PASSWORD })
    ).json()) as { access_token: string };
    const code = `ref-${stamp}`;
    expect((await post('/api/affiliate/links', { name: 'Blog', code }, affiliateToken)).status).toBe(200);
    const figures = async () =>
      (
        (await (
          await fetch(`${server.url}/api/affiliate/links`, { headers: { authorization: `Bearer ${affiliateToken}` } })
        ).json()) as { total_clicks: number; unique_clicks: number; conversions: number }[]
      )[0];

    // Headless Chromium says so in its user agent, and the server does not count such clicks: a person's browser.
    const page = await openPage(browser);
    await page.setExtraHTTPHeaders({
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    });
    await page.goto(`${server.url}/${code}`);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { level: 1, name: 'Build Software with Natural Language' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('affiliate_code'))).toBe(code);
    // The referral page was replaced: going back does not report the click again.
    expect(await page.evaluate(() => history.length)).toBeLessThanOrEqual(2);
    expect(await figures()).toMatchObject({ total_clicks: 1, unique_clicks: 1, conversions: 0 });

    const email = `referred.${stamp}@acme-e2e.dev`;
    await page.getByRole('link', { name: 'Start Building Now' }).first().click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('banner').getByRole('button', { name: 'Sign up', exact: true }).click();
    const signUp = page.getByRole('dialog', { name: 'Create your account' });
    await signUp.getByLabel('Full Name').fill('Referred Customer');
    await signUp.getByLabel('Email Address').fill(email);
    await signUp.getByLabel('Password').fill(PASSWORD);
    await signUp.getByRole('button', { name: 'Create Account & Claim FREE Credits' }).click();
    await page.waitForURL('**/registration-onboarding');
    // Bound to the link; a conversion is the first paid purchase (tests/e2e/public-site.test.ts).
    expect(await figures()).toMatchObject({ conversions: 0 });
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.close();
  });

  it('sends a prompt whose Send was pressed signed out, once the person has signed in', async () => {
    const { server, browser } = suite;
    const email = `grace.send.${Date.now()}@atelier-e2e.dev`;
    await registerThroughApi(server, email);
    const token = new URLSearchParams((await mailedLink(server, email)).split('?')[1]).get('token');
    await fetch(`${server.url}/api/auth/verify-email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect((await server.admin('activate-user', email)).code).toBe(0);
    expect((await server.admin('grant-credits', email, '5')).code).toBe(0);
    llm.enqueue(
      reply.text('Bakery', { when: withoutTools }),
      reply.toolCall('finish', { message: 'A bakery site, coming up.', task_completed: 'true' }, { when: withTools }),
    );
    const page = await openPage(browser);
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill('Build a bakery site with a menu');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const signIn = page.getByRole('dialog', { name: 'Sign In' });
    await signIn.getByLabel('Email').fill(email);
    await signIn.getByLabel('Password').fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign In' }).click();
    // Signed in, the prompt goes as if Send were pressed now: the conversation opens with it.
    await page.waitForURL(/\/experiment\/conversations\/[0-9a-f]{32}/, { timeout: 30_000 });
    const messages = page.getByRole('log', { name: 'Messages' });
    await messages.getByText('Build a bakery site with a menu').first().waitFor({ timeout: 30_000 });
    await messages.getByText('A bakery site, coming up.').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => localStorage.getItem('atelier.homeDraft'))).toBeNull();
    // The browser is the next test's: signed out again.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.close();
  });

  it('shows the server’s message for a wrong password', async () => {
    const { server, browser } = suite;
    const email = `grace.wrong.${Date.now()}@atelier-e2e.dev`;
    await registerThroughApi(server, email);
    const page = await openPage(browser);
    const signIn = await openSignIn(page, server);
    await signIn.getByLabel('Email').fill(email);
    await signIn.getByLabel('Password').fill('not the password');
    await signIn.getByRole('button', { name: 'Sign In' }).click();
    const alert = signIn.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe('Invalid email or password.');
    expect(await storedTokens(page)).toEqual({ local: null, session: null });
    await page.close();
  });

  it('keeps the token for this tab only when ‘Keep me signed in’ is off', async () => {
    const { server, browser } = suite;
    const email = `grace.tab.${Date.now()}@atelier-e2e.dev`;
    await registerThroughApi(server, email);
    const page = await openPage(browser);
    const signIn = await openSignIn(page, server);
    await signIn.getByLabel('Email').fill(email);
    await signIn.getByLabel('Password').fill(PASSWORD);
    const keepSignedIn = signIn.getByRole('checkbox', { name: 'Keep me signed in' });
    expect(await keepSignedIn.getAttribute('aria-checked')).toBe('true');
    await keepSignedIn.click();
    await signIn.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: 'Registration Onboarding' }).waitFor();
    const tokens = await storedTokens(page);
    expect(tokens.session).toBeTruthy();
    expect(tokens.local).toBeNull();
    await page.close();
  });

  it.each(['light', 'dark'] as const)(
    'has no serious or critical accessibility violations on /dashboard and in the sign-in dialog (%s scheme)',
    async (colorScheme) => {
      const { server, browser } = suite;
      const page = await openPage(browser);
      await page.emulateMedia({ colorScheme });
      await page.goto(`${server.url}/dashboard`);
      await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);

      const signIn = await openSignIn(page, server);
      await signIn.getByRole('button', { name: 'Sign In' }).click();
      await signIn.getByText('Email is required').waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.close();
    },
  );

  it('shows the hosted service’s terms and privacy policy, not a self-hosted installation’s', async () => {
    const { server, browser } = suite;
    const page = await openPage(browser);
    await page.goto(`${server.url}/terms`);
    await page.getByText('Atelier is a hosted service.', { exact: false }).waitFor();
    await page.goto(`${server.url}/privacy`);
    await page
      .getByText('Your data is stored on the servers of the operator of this service', { exact: false })
      .waitFor();
    expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/self-hosted/i);
    await page.close();
  });
});

describe.skipIf(browserMissing())('the self-hosted (oss) mode in the browser', () => {
  const suite = browserSuite({ mode: 'oss', address: '127.0.0.1' });

  it('opens the dashboard for the local user without any sign-in (a self-hosted installation has no landing page)', async () => {
    const { server, browser } = suite;
    const page = await openPage(browser);
    await page.goto(`${server.url}/`);
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
    expect(await page.getByRole('button', { name: /sign (in|up)/i }).count()).toBe(0);
    expect(await storedTokens(page)).toEqual({ local: null, session: null });

    await page.goto(`${server.url}/no-such-page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    // A self-hosted installation's terms say so.
    await page.goto(`${server.url}/terms`);
    await page.getByText('Atelier is self-hosted software.', { exact: false }).waitFor();
    await page.close();
  });
});
