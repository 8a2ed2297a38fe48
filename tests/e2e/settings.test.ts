import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserMissing, seriousAccessibilityViolations, type Browser } from '../support/browser.ts';
import { browserSuite, keepToken, pagesWithoutErrors } from '../support/browser-suite.ts';
import { mailedLink } from '../support/mail.ts';
import { saveBerlinAddress } from '../support/onboarding-page.ts';
import { startGitHubApiServer, startGitLabApiServer } from '../support/git-host-apis.ts';
import { toolPrefix } from '../../server/agent/tools/mcp.ts';
import { startEchoHttpServer } from '../support/mcp-echo-http.ts';
import type { RunningServer } from '../support/server.ts';
import { startStripeServer } from '../support/stripe-server.ts';
import { TOKEN_KEY } from '../../src/api/token-store.ts';

const PASSWORD = 'correct horse battery';

const openPage = pagesWithoutErrors();

const api = (server: RunningServer, path: string, init: { method?: string; token?: string; body?: unknown } = {}) =>
  fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

/** An active account (registered, verified through its mailed link, activated by the operator) and its access token. */
async function activeAccount(server: RunningServer, name: string, options: { verified: boolean } = { verified: true }) {
  const email = `${name}.${Date.now()}@acme-e2e.dev`;
  expect(
    (await api(server, '/api/auth/register', { method: 'POST', body: { name, email, password: PASSWORD } })).status,
  ).toBe(200);
  if (options.verified) {
    const token = new URLSearchParams((await mailedLink(server, email)).split('?')[1]).get('token');
    expect((await api(server, '/api/auth/verify-email', { method: 'POST', body: { token } })).status).toBe(200);
  }
  expect((await server.admin('activate-user', email)).code).toBe(0);
  const login = await api(server, '/api/auth/login', { method: 'POST', body: { email, password: PASSWORD } });
  const { access_token: token } = (await login.json()) as { access_token: string };
  return { email, token };
}

async function signedInPage(browser: Browser, server: RunningServer, token: string, path: string) {
  const page = await openPage(browser);
  await keepToken(page, server.url, token);
  await page.goto(`${server.url}${path}`);
  return page;
}

const tabNames = (page: Page) =>
  page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link').allInnerTexts();

const STRIPE_KEYS = { secretKey: 'sk_test_settings', webhookSecret: 'whsec_settings' };

describe.skipIf(browserMissing())('the settings screens of the hosted service', () => {
  // Payments through Stripe (a local server speaking its API): the profile offers its hosted card setup.
  let stripe: Awaited<ReturnType<typeof startStripeServer>>;
  beforeAll(async () => {
    stripe = await startStripeServer(STRIPE_KEYS);
  });
  afterAll(() => stripe?.close());
  const suite = browserSuite({
    mode: 'saas',
    env: () => ({
      // The test's git hosts are on this machine: allowed as an operator allows a server on its LAN.
      OUTBOUND_ALLOWED_RANGES: '127.0.0.1',
      STRIPE_SECRET_KEY: STRIPE_KEYS.secretKey,
      STRIPE_WEBHOOK_SECRET: STRIPE_KEYS.webhookSecret,
      STRIPE_API_URL: stripe.url,
    }),
  });

  it('opens /settings on the user tab with the hosted tabs, from the sidebar and the account menu', async () => {
    const { server, browser } = suite;
    const { email, token } = await activeAccount(server, 'ada');
    const page = await signedInPage(browser, server, token, '/dashboard');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings/user');
    await page.getByRole('heading', { name: 'User' }).waitFor();
    expect(await page.getByText(email).count()).toBeGreaterThan(0);
    expect(await tabNames(page)).toEqual(['User', 'Integrations', 'Application', 'Credits', 'Secrets', 'API keys']);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.goto(`${server.url}/settings/credits`);
    await page.waitForURL('**/settings/billing');
    await page.getByRole('heading', { name: 'Credits balance', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Buy Credits' }).waitFor();
    await page.getByRole('link', { name: 'Billing history' }).click();
    await page.waitForURL('**/profile');

    // Back from Stripe's hosted page: the outcome is said once, and dismissed from the address too.
    await page.goto(`${server.url}/profile?payment=cancelled`);
    const payment = page.getByRole('region', { name: 'Payment' });
    await payment.getByText('The payment was cancelled; nothing was charged.').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await payment.getByRole('button', { name: 'Dismiss' }).click();
    await payment.waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');

    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.waitForURL('**/settings/user');
    await page.close();
  });

  it('saves a card through Stripe’s hosted page from the profile, says so on the way back, and buys with it', async () => {
    const { server, browser } = suite;
    const { token } = await activeAccount(server, 'card');
    // The contact information registration onboarding saved, which the card is shown under.
    const contact = await api(server, '/api/atelier/onboarding/save-contact-information', {
      method: 'POST',
      token,
      body: {
        organization_name: 'Acme',
        legal_name: 'Card Holder',
        street_address: 'Main 1',
        city: 'Berlin',
        province: 'Berlin',
        postal_code: '10115',
      },
    });
    expect(contact.status).toBe(200);
    const page = await signedInPage(browser, server, token, '/profile');
    await page.getByRole('button', { name: 'Save a card' }).click();
    await page.waitForURL(`${stripe.url}/checkout/**`);
    const session = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    // The customer saves a card on Stripe's page; Stripe tells the server, and sends the browser back.
    const saved = stripe.completeSetup(session, '4242424242424242');
    const notified = await fetch(`${server.url}/api/billing/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': saved.signature },
      body: saved.payload,
    });
    expect(notified.status).toBe(200);
    // Stripe sends the browser back naming the session: the card is kept, and earns its $50 once.
    await page.goto(stripe.returnUrl(session));
    await page
      .getByRole('region', { name: 'Payment' })
      .getByText('Your card is saved. Buying credits now charges it directly.')
      .waitFor();
    await page.getByLabel('Credits: $50.00').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Buy Credits' }).click();
    const dialog = page.getByRole('dialog', { name: 'Buy Credits' });
    await dialog.getByRole('textbox', { name: 'Amount (USD)' }).fill('15');
    await dialog.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.getByText(/^Credits purchased\. Your balance is now \$\d+\.\d\d\.$/).waitFor();
    const charge = stripe.requests.filter((request) => request.path === '/v1/payment_intents').at(-1);
    expect(charge?.form).toMatchObject({ amount: '1500', off_session: 'true' });
    await page.close();
  });

  it('takes the onboarding card and the trial’s card on Stripe’s page: no card field on Atelier’s', async () => {
    const { server, browser } = suite;
    const email = `stripe-onboarding.${Date.now()}@acme-e2e.dev`;
    expect(
      (await api(server, '/api/auth/register', { method: 'POST', body: { name: 'Ada', email, password: PASSWORD } }))
        .status,
    ).toBe(200);
    const verification = new URLSearchParams((await mailedLink(server, email)).split('?')[1]).get('token');
    expect(
      (await api(server, '/api/auth/verify-email', { method: 'POST', body: { token: verification } })).status,
    ).toBe(200);
    const login = await api(server, '/api/auth/login', { method: 'POST', body: { email, password: PASSWORD } });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const page = await signedInPage(browser, server, token, '/registration-onboarding');
    await page.getByLabel('Country').selectOption({ label: 'Germany' });
    await page.getByRole('button', { name: 'Agree & continue' }).click();
    await page.getByRole('button', { name: 'Add name and address' }).click();
    const contact = page.getByRole('dialog', { name: 'Contact information' });
    await contact.getByLabel('Organization name').fill('Acme GmbH');
    await saveBerlinAddress(contact);
    await page.getByText('Stripe’s own page takes your card: its number never reaches Atelier.').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Add a card on Stripe’s page' }).click();
    await page.waitForURL(`${stripe.url}/checkout/**`);
    const session = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    stripe.completeSetup(session, '4242424242424242', 'Ada Lovelace');
    // Back on step 2 with the card Stripe took, without the session in the address; $50 for it.
    await page.goto(stripe.returnUrl(session));
    await page.getByText('visa •••• 4242, expires 12/35').waitFor();
    await page.waitForURL((url) => !url.search.includes('setup_session'));
    expect(await page.getByRole('textbox', { name: /card number/i }).count()).toBe(0);
    const credits = async () =>
      ((await (await api(server, '/api/billing/credits', { token })).json()) as { credits: number }).credits;
    await page.getByRole('button', { name: 'Start Free' }).click();
    await page.waitForURL('**/dashboard');
    expect(await credits()).toBe(50);

    // The trial: Stripe's page verifies the card, then the address and the terms claim it here.
    await page.goto(`${server.url}/claim-credit`);
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await page.getByRole('button', { name: 'Verify a card on Stripe’s page' }).click();
    await page.waitForURL(`${stripe.url}/checkout/**`);
    const trial = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    stripe.completeSetup(trial, '5555555555554444', 'Ada Lovelace');
    await page.goto(stripe.returnUrl(trial));
    await page.getByText('Stripe verified your card.', { exact: false }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Billing address').fill('Hauptstraße 1, 10115 Berlin');
    await page.getByRole('checkbox').click();
    await page.getByRole('button', { name: 'Start free' }).click();
    await page.waitForURL('**/dashboard');
    expect(await credits()).toBe(150);
    // No request Atelier made to Stripe carried a card number.
    expect(JSON.stringify(stripe.requests)).not.toMatch(/4242424242424242|5555555555554444/);
    await page.close();
  });

  it('holds an unverified account at its banner with the navigation locked, until the mailed link verifies it', async () => {
    const { server, browser } = suite;
    const { email, token } = await activeAccount(server, 'unverified', { verified: false });
    const page = await signedInPage(browser, server, token, '/dashboard');
    const banner = page.getByRole('region', { name: 'Email verification' });
    await banner.getByText(`Verify your email address to start conversations. We sent a link to ${email}.`).waitFor();
    const sidebar = page.getByRole('navigation', { name: 'Sidebar' });
    expect(await sidebar.getByRole('button', { name: 'New conversation' }).isDisabled()).toBe(true);
    expect(await sidebar.getByRole('button', { name: 'Show conversations' }).isDisabled()).toBe(true);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // The registration's link went out a moment ago: another must wait.
    await banner.getByRole('button', { name: 'Send a new link' }).click();
    await banner
      .getByText(/^A verification email was sent a moment ago\. Please try again in \d+ seconds\.$/)
      .waitFor();

    await sidebar.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings/user');
    await page.getByText('Not verified').waitFor();
    await page.getByRole('button', { name: 'Send a new verification link' }).waitFor();

    // The link works signed out, in any browser.
    const elsewhere = await openPage(browser);
    await elsewhere.goto(`${server.url}${await mailedLink(server, email)}`);
    await elsewhere.getByText(`Your email address ${email} is verified. You can start conversations now.`).waitFor();
    expect(await seriousAccessibilityViolations(elsewhere)).toEqual([]);
    await elsewhere.close();

    await page.goto(`${server.url}/dashboard`);
    await sidebar.getByRole('link', { name: 'New conversation' }).waitFor();
    expect(await banner.count()).toBe(0);
    await page.goto(`${server.url}/settings/user`);
    await page.getByText('Verified', { exact: true }).waitFor();

    const broken = await openPage(browser);
    await broken.goto(`${server.url}/verify-email?token=${'A'.repeat(43)}`);
    await broken
      .getByText('This verification link is invalid or has expired. Ask for a new one in Settings → User.')
      .waitFor();
    await broken.close();
    await page.close();
  });

  it('adds, edits and deletes a secret, and never shows its value', async () => {
    const { server, browser } = suite;
    const { token } = await activeAccount(server, 'grace');
    const page = await signedInPage(browser, server, token, '/settings/secrets');
    await page.getByText('No secrets yet.').waitFor();

    await page.getByRole('button', { name: 'Add a secret' }).click();
    const add = page.getByRole('dialog', { name: 'Add a secret' });
    await add.getByLabel('Name').fill('2FA-CODE');
    await add.getByRole('button', { name: 'Save' }).click();
    await add.getByText('Use letters, digits and underscores, not starting with a digit').waitFor();
    await add.getByText('Value is required').waitFor();
    await add.getByLabel('Name').fill('PATH');
    await add.getByRole('button', { name: 'Save' }).click();
    await add.getByText('This name is used by the workspace itself').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await add.getByLabel('Name').fill('DEPLOY_TOKEN');
    await add.getByLabel('Value').fill('s3cr3t-value-123');
    await add.getByLabel('Description (optional)').fill('Deploys the staging site');
    await add.getByRole('button', { name: 'Save' }).click();
    await add.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /DEPLOY_TOKEN/ });
    await row.getByText('Deploys the staging site').waitFor();
    expect(await page.content()).not.toContain('s3cr3t-value-123');
    const listed = await (await api(server, '/api/secrets', { token })).json();
    expect(listed).toEqual({ custom_secrets: [{ name: 'DEPLOY_TOKEN', description: 'Deploys the staging site' }] });

    // A second secret of the same name is refused with the server's words.
    await page.getByRole('button', { name: 'Add a secret' }).click();
    await add.getByLabel('Name').fill('DEPLOY_TOKEN');
    await add.getByLabel('Value').fill('other');
    await add.getByRole('button', { name: 'Save' }).click();
    expect(await add.getByRole('alert').innerText()).toBe('A secret named DEPLOY_TOKEN already exists.');
    await add.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Edit DEPLOY_TOKEN' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit DEPLOY_TOKEN' });
    expect(await edit.getByLabel('New value').inputValue()).toBe('');
    await edit.getByLabel('Name').fill('STAGING_TOKEN');
    await edit.getByLabel('Description (optional)').fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /STAGING_TOKEN/ }).waitFor();
    expect(await (await api(server, '/api/secrets', { token })).json()).toEqual({
      custom_secrets: [{ name: 'STAGING_TOKEN', description: null }],
    });

    await page.getByRole('button', { name: 'Delete STAGING_TOKEN' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete STAGING_TOKEN?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No secrets yet.').waitFor();
    expect(await (await api(server, '/api/secrets', { token })).json()).toEqual({ custom_secrets: [] });
    await page.close();
  });

  it('switches the language live on saving, and the saved language wins over the browser’s after a reload', async () => {
    const { server, browser } = suite;
    const { token } = await activeAccount(server, 'hedy');
    const page = await signedInPage(browser, server, token, '/settings/app');
    const save = page.getByRole('button', { name: 'Save' });
    await page.getByLabel('Language').waitFor();
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel('Maximum budget per task (USD)').fill('0');
    await page.getByText('The budget must be more than $0 and at most $100,000.').waitFor();
    await page.getByLabel('Maximum budget per task (USD)').fill('2.50');
    await page.getByLabel('Language').selectOption('de');
    await save.click();
    await page.getByRole('heading', { name: 'Einstellungen' }).waitFor();
    await page.getByRole('status').getByText('Gespeichert.').waitFor();
    const saved = (await (await api(server, '/api/settings', { token })).json()) as Record<string, unknown>;
    expect(saved).toMatchObject({ language: 'de', max_budget_per_task: 2.5 });

    await page.reload();
    await page.getByRole('heading', { name: 'Anwendung' }).waitFor();
    expect(await page.getByLabel('Höchstbudget pro Aufgabe (USD)').inputValue()).toBe('2.5');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.close();
  });

  it('creates an API key that calls the API, shows it once, and revokes it', async () => {
    const { server, browser } = suite;
    const { email, token } = await activeAccount(server, 'katherine');
    const page = await signedInPage(browser, server, token, '/settings/api-keys');
    await page.getByText('No API keys yet.').waitFor();
    await page.getByRole('button', { name: 'Create an API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByRole('button', { name: 'Create an API key' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByLabel('Name').fill('Nightly build');
    await dialog.getByRole('button', { name: 'Create an API key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    const key = await shown.getByLabel('API key').inputValue();
    expect(key).toMatch(/^atl_/);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: /Nightly build/ });
    await row.getByText(`${key.slice(0, 12)}…`).waitFor();
    expect(await page.content()).not.toContain(key);
    const me = await api(server, '/api/auth/me/extended', { token: key });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(email);

    await page.reload();
    await page.getByRole('row', { name: /Nightly build/ }).waitFor();
    await page.getByRole('button', { name: 'Revoke Nightly build' }).click();
    await page.getByRole('dialog', { name: 'Revoke Nightly build?' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No API keys yet.').waitFor();
    expect((await api(server, '/api/auth/me/extended', { token: key })).status).toBe(401);
    await page.close();
  });

  it('connects a GitHub account by token and host, names a token GitLab rejects, and disconnects', async () => {
    const { server, browser } = suite;
    const fixture = { token: 'ghp_e2e', repositories: [{ id: 1, full_name: 'octo/app' }] };
    const [github, gitlab] = await Promise.all([startGitHubApiServer(fixture), startGitLabApiServer(fixture)]);
    try {
      const { token } = await activeAccount(server, 'gia');
      const page = await signedInPage(browser, server, token, '/settings/integrations');
      const githubCard = page.getByRole('form', { name: 'GitHub' });
      await githubCard.getByText('Not connected').waitFor();
      await githubCard.getByLabel('GitHub token').fill('ghp_e2e');
      await githubCard.getByLabel('Host (optional)').fill(github.url);
      await githubCard.getByRole('button', { name: 'Save GitHub token' }).click();
      await githubCard.getByText('Connected as octo').waitFor();
      // The token is never shown again.
      expect(await githubCard.getByLabel('GitHub token').inputValue()).toBe('');

      const gitlabCard = page.getByRole('form', { name: 'GitLab' });
      await gitlabCard.getByLabel('GitLab token').fill('glpat-wrong');
      await gitlabCard.getByLabel('Host (optional)').fill(gitlab.url);
      await gitlabCard.getByRole('button', { name: 'Save GitLab token' }).click();
      await gitlabCard.getByText('GitLab rejected the token. Replace it in Settings → Integrations.').waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);

      await githubCard.getByRole('button', { name: 'Disconnect GitHub' }).click();
      await githubCard.getByText('Not connected').waitFor();
      expect(
        ((await (await api(server, '/api/settings', { token })).json()) as { provider_tokens_set: unknown })
          .provider_tokens_set,
      ).toEqual({ github: false, gitlab: true, bitbucket: false });
      await page.close();
    } finally {
      await Promise.all([github.close(), gitlab.close()]);
    }
  });

  it('asks an anonymous visitor to sign in', async () => {
    const { server, browser } = suite;
    const page = await openPage(browser);
    await page.goto(`${server.url}/terms`);
    await page.evaluate((key) => localStorage.removeItem(key), TOKEN_KEY);
    await page.goto(`${server.url}/settings/secrets`);
    const region = page.getByRole('region', { name: 'Sign in to see and change your settings.' });
    await region.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('dialog', { name: 'Sign In' }).waitFor();
    await page.close();
  });
});

describe.skipIf(browserMissing())('the settings screens of a self-hosted installation', () => {
  const suite = browserSuite({ mode: 'oss' });

  it('shows the self-hosted tabs and sends the hosted-only tabs back to /settings', async () => {
    const { server, browser } = suite;
    const page = await openPage(browser);
    await page.goto(`${server.url}/settings/api-keys`);
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.getByRole('heading', { name: 'Language model' }).waitFor();
    expect(await tabNames(page)).toEqual(['LLM', 'MCP', 'Integrations', 'Application', 'Secrets']);
    expect(await (await api(server, '/api/keys')).json()).toEqual({
      detail: 'API keys exist on the hosted service only',
    });
    // Nothing of the hosted-only tab ran on the way (it would have asked for the keys and shown a toast).
    expect(await page.locator('[data-title]').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.close();
  });
  it('edits the MCP servers as JSON: refuses a broken configuration, stages a valid one, saves it, and shows which servers answer with their tools', async () => {
    const { server, browser } = suite;
    const page = await openPage(browser);
    await page.goto(`${server.url}/settings/mcp`);
    await page.getByText('No MCP servers configured.').waitFor();
    const save = page.getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByLabel('MCP configuration (JSON)');
    expect(JSON.parse(await editor.inputValue())).toEqual({ sse_servers: [], stdio_servers: [] });
    await editor.fill('{"sse_servers": "https://mcp.acme.example/sse", "stdio_servers": [{"name": "fetch"}]');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The configuration is not valid:').waitFor();
    await page.getByText('It is not valid JSON.').waitFor();
    await editor.fill('{"sse_servers": "https://mcp.acme.example/sse", "stdio_servers": [{"name": "fetch"}]}');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('sse_servers must be an array.').waitFor();
    await page.getByText('Each stdio server needs a name and a command.').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The spec's example: one SSE url and a stdio server named fetch with command uvx.
    const example = {
      sse_servers: ['https://mcp.acme.example/sse'],
      stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'] }],
    };
    await editor.fill(JSON.stringify(example));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Confirmed: save to keep this configuration.').waitFor();
    await page.getByRole('row', { name: /fetch/ }).getByText('uvx mcp-server-fetch').waitFor();
    expect(
      ((await (await api(server, '/api/settings')).json()) as { mcp_config?: unknown }).mcp_config ?? null,
    ).not.toEqual(example);
    await save.click();
    await page.getByText('Confirmed: save to keep this configuration.').waitFor({ state: 'detached' });
    expect(((await (await api(server, '/api/settings')).json()) as { mcp_config: unknown }).mcp_config).toEqual(
      example,
    );
    // Saved, the servers are checked at once, without a reload.
    await page
      .getByRole('row', { name: /uvx mcp-server-fetch/ })
      .getByText(/^Not reachable: /)
      .waitFor({ timeout: 30_000 });

    await page.reload();
    await page.getByRole('row', { name: /mcp\.acme\.example/ }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    expect(JSON.parse(await editor.inputValue())).toEqual(example);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await editor.waitFor({ state: 'detached' });
    // Saved servers are checked as the agent would reach them: uvx is not installed here.
    await page
      .getByRole('row', { name: /uvx mcp-server-fetch/ })
      .getByText(/^Not reachable: /)
      .waitFor({ timeout: 30_000 });

    // The test MCP server, behind its key: reachable, with its tools listed.
    const echo = await startEchoHttpServer('s3cret');
    try {
      await page.getByRole('button', { name: 'Edit' }).click();
      // Twice: as an SSE server and as OpenHands' newer shttp_servers entry, whose tools then collide.
      const access = { url: echo.url, api_key: 's3cret' };
      await editor.fill(JSON.stringify({ sse_servers: [access], shttp_servers: [access], stdio_servers: [] }));
      await page.getByRole('button', { name: 'Confirm' }).click();
      const rowOf = (kind: string) =>
        page.getByRole('row').filter({ has: page.getByRole('cell', { name: kind, exact: true }) });
      await rowOf('SSE').getByText('Checked once saved.').waitFor();
      await save.click();
      await rowOf('SSE').getByText('Reachable. Tools: echo, fail').waitFor();
      const prefix = toolPrefix(echo.url);
      await rowOf('HTTP')
        .getByText(
          `Reachable. Tools: ${prefix}__echo (its own name echo is taken by another tool), ${prefix}__fail (its own name fail is taken by another tool)`,
        )
        .waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    } finally {
      await echo.close();
    }
    await page.close();
  });
});
