import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserMissing, seriousAccessibilityViolations, type Browser } from '../support/browser.ts';
import { browserSuite } from '../support/browser-suite.ts';
import type { RunningServer } from '../support/server.ts';

const TOKEN_KEY = 'atelier_token';
const PASSWORD = 'correct horse battery';

/** Uncaught errors of the pages opened by the current test; each test ends with none. */
let pageErrors: string[] = [];

afterEach(() => {
  const errors = pageErrors;
  pageErrors = [];
  expect(errors).toEqual([]);
});

async function openPage(browser: Browser) {
  const page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

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

async function openSignIn(page: Page, server: RunningServer) {
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('banner').getByRole('button', { name: 'Sign in', exact: true }).click();
  return page.getByRole('dialog', { name: 'Sign In' });
}

async function profileMenuText(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  const text = await menu.innerText();
  await page.keyboard.press('Escape');
  return text;
}

describe.skipIf(browserMissing())('signing up, in and out in the browser', () => {
  const suite = browserSuite({ mode: 'saas' });

  it('signs up with a personal email, keeps the session over a reload and logs out', async () => {
    const { server, browser } = suite;
    const page = await openPage(browser);
    const email = `ada.${Date.now()}@gmail.com`;
    await page.goto(`${server.url}/`);
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();

    await page.getByRole('banner').getByRole('button', { name: 'Sign up', exact: true }).click();
    const signUp = page.getByRole('dialog', { name: 'Create your account' });
    await signUp.getByRole('button', { name: 'Create Account & Claim FREE Credits' }).click();
    expect(await signUp.getByText('Name is required').count()).toBe(1);
    expect(await signUp.getByText('Email is required').count()).toBe(1);
    expect(await signUp.getByText('Password is required').count()).toBe(1);

    await signUp.getByLabel('Full Name').fill('Ada Lovelace');
    expect(await signUp.getByText('Name is required').count()).toBe(0);
    await signUp.getByLabel('Email Address').fill(email);
    await signUp.getByLabel('Password').fill(PASSWORD);
    await signUp.getByRole('button', { name: 'Create Account & Claim FREE Credits' }).click();

    const personalEmail = page.getByRole('dialog', { name: 'Personal Email Detected' });
    await personalEmail.getByRole('button', { name: 'Continue with Personal Email' }).click();

    // New accounts are not active yet, so the dashboard hands over to onboarding.
    await page.waitForURL('**/registration-onboarding');
    await page.getByRole('heading', { name: 'Registration Onboarding' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await profileMenuText(page)).toContain(email);
    expect((await storedTokens(page)).local).toBeTruthy();

    await page.reload();
    await page.getByRole('heading', { name: 'Registration Onboarding' }).waitFor();
    expect(await profileMenuText(page)).toContain(email);

    await page.getByRole('button', { name: 'Switch account' }).click();
    await page.getByRole('dialog', { name: 'Sign In' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('banner').getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await storedTokens(page)).toEqual({ local: null, session: null });
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
  const suite = browserSuite({ mode: 'oss' });

  it('opens the dashboard for the local user without any sign-in', async () => {
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
