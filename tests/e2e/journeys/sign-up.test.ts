import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { setup } from 'xstate';
import { browserMissing, seriousAccessibilityViolations } from '../../support/browser.ts';
import { browserSuite, forgetEarlierVisits, pagesWithoutErrors } from '../../support/browser-suite.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../../support/fake-llm/index.ts';
import { journeyTests } from '../../support/journey.ts';
import { mailedLink } from '../../support/mail.ts';
import { TOKEN_KEY } from '../../../src/api/token-store.ts';
import { saveBerlinAddress } from '../../support/onboarding-page.ts';

// Journey 1: visitor → landing → sign up → onboarding → first conversation, in the hosted mode.
// The visitor signs up with a personal or a company address (after submitting the empty form, or
// not), goes through the registration onboarding (the country; Start Free before the contact
// information is given; a refused and a saved card, or none), and with the card's free credit and
// a verified address starts a first conversation from the home page. The session survives a
// reload; Switch account and Logout are offered during the onboarding.

const PASSWORD = 'correct horse battery';

const journey = setup({}).createMachine({
  id: 'signUpJourney',
  initial: 'landing',
  states: {
    landing: { on: { START_BUILDING: 'visitorHome' } },
    visitorHome: { on: { OPEN_SIGN_UP: 'signUp' } },
    signUp: { on: { SUBMIT_EMPTY: 'signUpInvalid', SUBMIT_PERSONAL: 'personalEmail', SUBMIT_COMPANY: 'countryStep' } },
    signUpInvalid: { on: { SUBMIT_PERSONAL: 'personalEmail' } },
    personalEmail: { on: { CONTINUE_PERSONAL: 'countryStep' } },
    countryStep: {
      on: { RELOAD: 'countryStep', SWITCH_ACCOUNT: 'signInDialog', LOG_OUT: 'visitorHome', AGREE: 'paymentStep' },
    },
    signInDialog: { on: { CLOSE_DIALOG: 'countryStep' } },
    paymentStep: { on: { START_FREE: 'stepsMissing', ADD_CONTACT: 'contactGiven' } },
    stepsMissing: { on: { GOT_IT: 'paymentStep' } },
    contactGiven: { on: { START_FREE: 'homeWithoutCredit', ADD_WRONG_CARD: 'cardRefused', ADD_CARD: 'cardSaved' } },
    cardRefused: { on: { FIX_CARD: 'cardSaved' } },
    cardSaved: { on: { START_FREE: 'homeWithCredit' } },
    homeWithoutCredit: {},
    homeWithCredit: { on: { VERIFY_EMAIL: 'verified' } },
    verified: { on: { START_CONVERSATION: 'conversation' } },
    conversation: {},
  },
});

interface World {
  page: Page;
  email: string;
}

const storedTokens = (page: Page) =>
  page.evaluate((key) => ({ local: localStorage.getItem(key), session: sessionStorage.getItem(key) }), TOKEN_KEY);
const accessible = async (page: Page) => expect(await seriousAccessibilityViolations(page)).toEqual([]);
const signUpDialog = (page: Page) => page.getByRole('dialog', { name: 'Create your account' });
const cardDialog = (page: Page) => page.getByRole('dialog', { name: 'Add credit or debit card' });

async function profileMenuText(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  const text = await menu.innerText();
  await page.keyboard.press('Escape');
  return text;
}

async function submitSignUp(page: Page, email: string) {
  const dialog = signUpDialog(page);
  await dialog.getByLabel('Full Name').fill('Ada Lovelace');
  expect(await dialog.getByText('Name is required').count()).toBe(0);
  await dialog.getByLabel('Email Address').fill(email);
  await dialog.getByLabel('Password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Create Account & Claim FREE Credits' }).click();
}

async function fillCard(page: Page, number: string) {
  await page.getByRole('button', { name: 'Add payment method' }).click();
  const card = cardDialog(page);
  await card.getByLabel('Card number').fill(number);
  await card.getByLabel('Expiry (MM/YY)').fill('12/35');
  await card.getByLabel('Security code').fill('737');
  await card.getByLabel('Cardholder name').fill('Ada Lovelace');
  await card.getByRole('button', { name: 'Save card' }).click();
}

describe.skipIf(browserMissing())('journey: visitor → landing → sign up → onboarding → first conversation', () => {
  const llm = new FakeLlm('fake-model');
  const suite = browserSuite({ mode: 'saas', llm });
  const openPage = pagesWithoutErrors();
  let visitors = 0;
  const nextEmail = (domain: string) => `ada.${Date.now()}.${++visitors}@${domain}`;

  journeyTests<World>({
    model: journey,
    events: [
      'START_BUILDING',
      'OPEN_SIGN_UP',
      'SUBMIT_EMPTY',
      'SUBMIT_PERSONAL',
      'SUBMIT_COMPANY',
      'CONTINUE_PERSONAL',
      'RELOAD',
      'SWITCH_ACCOUNT',
      'CLOSE_DIALOG',
      'LOG_OUT',
      'AGREE',
      'START_FREE',
      'GOT_IT',
      'ADD_CONTACT',
      'ADD_WRONG_CARD',
      'FIX_CARD',
      'ADD_CARD',
      'VERIFY_EMAIL',
      'START_CONVERSATION',
    ].map((type) => ({ type })),
    timeout: 150_000,

    async start() {
      const { server, browser } = suite;
      const page = await openPage(browser);
      await forgetEarlierVisits(page, server);
      await page.goto(`${server.url}/`);
      return { page, email: '' };
    },

    states: {
      async landing({ page }) {
        await page.getByRole('link', { name: 'Start Building Now' }).first().waitFor();
      },
      async visitorHome({ page }) {
        await page.waitForURL('**/dashboard');
        await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
        await page.getByRole('banner').getByRole('button', { name: 'Sign in', exact: true }).waitFor();
        expect(await storedTokens(page)).toEqual({ local: null, session: null });
      },
      async signUp({ page }) {
        await signUpDialog(page).getByLabel('Full Name').waitFor();
        await accessible(page);
      },
      async signUpInvalid({ page }) {
        const dialog = signUpDialog(page);
        expect(await dialog.getByText('Name is required').count()).toBe(1);
        expect(await dialog.getByText('Email is required').count()).toBe(1);
        expect(await dialog.getByText('Password is required').count()).toBe(1);
      },
      async personalEmail({ page }) {
        await page.getByRole('dialog', { name: 'Personal Email Detected' }).waitFor();
      },
      async countryStep({ page, email }) {
        // New accounts are not active yet, so the dashboard hands over to onboarding.
        await page.waitForURL('**/registration-onboarding');
        await page.getByRole('heading', { name: 'Registration Onboarding' }).waitFor();
        await page.getByText('Step 1 of 2').waitFor();
        expect(await page.getByRole('dialog').count()).toBe(0);
        expect(await profileMenuText(page)).toContain(email);
        expect((await storedTokens(page)).local).toBeTruthy();
        // The country is detected from the browser's language (en-US) until one is chosen.
        await expect.poll(() => page.getByLabel('Country').inputValue()).toBe('840');
        await accessible(page);
      },
      async signInDialog({ page }) {
        await page.getByRole('dialog', { name: 'Sign In' }).waitFor();
      },
      async paymentStep({ page }) {
        await page.getByText('Step 2 of 2').waitFor();
        // The card waits for the contact information.
        expect(await page.getByRole('button', { name: 'Add payment method' }).isDisabled()).toBe(true);
        expect(await page.getByRole('dialog').count()).toBe(0);
      },
      async stepsMissing({ page }) {
        await page
          .getByRole('dialog', { name: 'Complete Required Steps' })
          .getByText('Add your contact information')
          .waitFor();
      },
      async contactGiven({ page }) {
        await page.getByText('Hauptstraße 1', { exact: false }).waitFor();
        expect(await page.getByRole('button', { name: 'Add payment method' }).isEnabled()).toBe(true);
        expect(await page.getByRole('dialog').count()).toBe(0);
      },
      async cardRefused({ page }) {
        await page
          .getByRole('dialog', { name: 'Error' })
          .getByText('The card number is not valid. Please check it.')
          .waitFor();
      },
      async cardSaved({ page }) {
        await page.getByText('visa •••• 4242, expires 12/35').waitFor();
        await accessible(page);
      },
      async homeWithoutCredit({ page }) {
        await page.waitForURL('**/dashboard');
        await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
        await page.getByLabel('Credits: $0.00').waitFor();
      },
      async homeWithCredit({ page }) {
        await page.waitForURL('**/dashboard');
        await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
        // The card's free credit; the header's balance is green from $1.
        const indicator = page.getByLabel('Credits: $50.00');
        await indicator.waitFor();
        expect(await indicator.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(6, 118, 71)');
        await accessible(page);
      },
      async verified({ page, email }) {
        await page.getByText(`Your email address ${email} is verified.`, { exact: false }).waitFor();
      },
      async conversation({ page }) {
        await page
          .getByRole('region', { name: 'Chat with the agent' })
          .getByText('Your first project is under way.')
          .waitFor({ timeout: 60_000 });
      },
    },

    steps: {
      async START_BUILDING({ page }) {
        await page.getByRole('link', { name: 'Start Building Now' }).first().click();
      },
      async OPEN_SIGN_UP({ page }) {
        await page.getByRole('banner').getByRole('button', { name: 'Sign up', exact: true }).click();
      },
      async SUBMIT_EMPTY({ page }) {
        await signUpDialog(page).getByRole('button', { name: 'Create Account & Claim FREE Credits' }).click();
      },
      async SUBMIT_PERSONAL(world) {
        world.email = nextEmail('gmail.com');
        await submitSignUp(world.page, world.email);
      },
      async SUBMIT_COMPANY(world) {
        world.email = nextEmail('acme-e2e.dev');
        await submitSignUp(world.page, world.email);
      },
      async CONTINUE_PERSONAL({ page }) {
        await page
          .getByRole('dialog', { name: 'Personal Email Detected' })
          .getByRole('button', { name: 'Continue with Personal Email' })
          .click();
      },
      async RELOAD({ page }) {
        await page.reload();
      },
      async SWITCH_ACCOUNT({ page }) {
        await page.getByRole('button', { name: 'Switch account' }).click();
      },
      async CLOSE_DIALOG({ page }) {
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'detached' });
      },
      async LOG_OUT({ page }) {
        await page.getByRole('button', { name: 'Account menu' }).click();
        await page.getByRole('menuitem', { name: 'Logout' }).click();
      },
      async AGREE({ page }) {
        await page.getByLabel('Country').selectOption({ label: 'Germany' });
        await page.getByRole('button', { name: 'Agree & continue' }).click();
      },
      async START_FREE({ page }) {
        await page.getByRole('button', { name: 'Start Free' }).click();
      },
      async GOT_IT({ page }) {
        await page
          .getByRole('dialog', { name: 'Complete Required Steps' })
          .getByRole('button', { name: 'Got it' })
          .click();
      },
      async ADD_CONTACT({ page }) {
        await page.getByRole('button', { name: 'Add name and address' }).click();
        const contact = page.getByRole('dialog', { name: 'Contact information' });
        // The organization's name is asked of a company account only.
        const organization = contact.getByLabel('Organization name');
        if ((await contact.getByLabel('Profile type').inputValue()) === 'Organization')
          await organization.fill('Acme GmbH');
        else expect(await organization.count()).toBe(0);
        await saveBerlinAddress(contact);
      },
      async ADD_WRONG_CARD({ page }) {
        // The server checks the card: a wrong checksum comes back in the Error dialog.
        await fillCard(page, '4242 4242 4242 4241');
      },
      async FIX_CARD({ page }) {
        await page.getByRole('dialog', { name: 'Error' }).getByRole('button', { name: 'OK' }).click();
        await page.getByRole('dialog', { name: 'Error' }).waitFor({ state: 'detached' });
        await fillCard(page, '4242 4242 4242 4242');
      },
      async ADD_CARD({ page }) {
        await fillCard(page, '4242 4242 4242 4242');
      },
      async VERIFY_EMAIL({ page, email }) {
        // Conversations wait for a verified address: the mailed link verifies it.
        await page.goto(`${suite.server.url}${await mailedLink(suite.server, email)}`);
      },
      async START_CONVERSATION({ page }) {
        llm.enqueue(
          reply.text('First project', { when: withoutTools }),
          reply.toolCall(
            'finish',
            { message: 'Your first project is under way.', task_completed: 'true' },
            { when: withTools },
          ),
        );
        await page.goto(`${suite.server.url}/dashboard`);
        const box = page.getByRole('textbox', { name: 'Message to the agent' });
        await box.fill('Build me a notes app');
        await box.press('Enter');
        await page.waitForURL(/\/experiment\/conversations\/[^/?]+$/, { timeout: 30_000 });
      },
    },
  });
});
