import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { browserSuite, pagesWithoutErrors } from '../support/browser-suite.ts';

const openPage = pagesWithoutErrors();
const PASSWORD = 'correct horse battery';

/** A purchase as the application makes it: contact and test card saved in onboarding, then $`amount` bought. */
async function buyCredits(url: string, token: string, amount: number) {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };
  const contact = await post('/api/atelier/onboarding/save-contact-information', {
    organization_name: 'Acme',
    legal_name: 'Referred Customer',
    street_address: 'Main street 1',
    city: 'Berlin',
    province: 'Berlin',
    postal_code: '10115',
  });
  await post('/api/atelier/onboarding/save-payment-information', {
    contact_information_id: (contact.contact_information as { id: string }).id,
    card_number: '4242 4242 4242 4242',
    expiry_date: '12/35',
    security_code: '123',
    cardholder_name: 'Referred Customer',
    same_billing_address: true,
  });
  await post('/api/auth/purchase-credits', { amount });
}

const figures = (page: Page) =>
  page.locator('[data-count-to]').evaluateAll((elements) => elements.map((e) => e.textContent));

describe.skipIf(browserMissing())('the public site in Chromium', () => {
  const suite = browserSuite({ mode: 'saas' });

  it('arrives as HTML with one small script, counts up, dismisses its banner for the page view and leads to the app', async () => {
    const { server, browser } = suite;
    const page = await openPage(browser);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    // The markup is in the document itself: the first paint does not wait for a script.
    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).toContain('Build Software with Natural Language</h1>');
    expect(html).toContain('Build Number: 3');

    await page.goto(`${server.url}/`);
    expect(await page.title()).toBe('Build Software with Natural Language');
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe(
      'Build Software with Natural Language',
    );
    await page.getByRole('heading', { level: 1, name: 'Build Software with Natural Language' }).waitFor();
    // Only the landing page's own script: none of the application's.
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^\/assets\/island-[\w-]+\.js$/);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-count-to]')].every(
        (e) => e.textContent === (e as HTMLElement).dataset.countTo,
      ),
    );
    expect(await figures(page)).toEqual(['10', '99', '24']);
    await page.getByText('Happy Developers').waitFor();
    await page.getByText('Build Number: 3').waitFor();
    expect(await page.locator('#features li').count()).toBe(6);
    expect(await page.locator('figure blockquote').count()).toBe(3);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    const banner = page.getByRole('link', { name: 'Become an affiliate' });
    expect(await banner.getAttribute('href')).toBe('/affiliate');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: 'Learn More' }).click();
    await page.waitForURL('**/#features');
    await page.reload();
    await banner.waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Go to App' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
    await page.close();
  });

  it('is sent in the visitor’s language', async () => {
    const { server } = suite;
    const german = await fetch(`${server.url}/`, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } });
    expect(german.headers.get('vary')).toMatch(/accept-language/i);
    const html = await german.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Build-Nummer: 3');
    const other = await (await fetch(`${server.url}/`, { headers: { 'accept-language': 'ja' } })).text();
    expect(other).toContain('<html lang="en">');
  });

  it('takes an affiliate from registration through verification, a link, a paying referred customer and the dashboard', async () => {
    const { server, browser } = suite;
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const stamp = Date.now();
    const email = `partner.${stamp}@partners.example`;
    const page = await openPage(browser);
    await page.goto(`${server.url}/affiliate`);
    const header = page.getByRole('banner');
    await header.getByRole('button', { name: 'Login' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await header.getByRole('link', { name: 'Register' }).click();
    await page.waitForURL('**/affiliate#register');

    const form = page.locator('form[aria-labelledby="register-heading"]');
    await form.getByLabel('Full Name').fill('Pat Partner');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    const whatsapp = form.getByRole('textbox', { name: 'WhatsApp Number' });
    // The phone input starts with the United States' code.
    expect(await whatsapp.inputValue()).toBe('+1 ');
    expect(await whatsapp.getAttribute('placeholder')).toBe('[Country Code] [Phone Number]');
    await whatsapp.fill('+1 12');
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.getByText('Enter a valid phone number for the chosen country.').waitFor();
    await whatsapp.fill('+1 2025550123');
    await form.getByRole('button', { name: 'Submit' }).click();

    // Registered, logged in with remember me, on the dashboard, under review.
    await page.waitForURL('**/affiliate/dashboard');
    await page.getByText('Thank you for registering! Your application is being reviewed.', { exact: false }).waitFor();
    await page.getByText('You need to be verified to create referral links').waitFor();
    expect(await page.getByRole('button', { name: 'Create Link' }).count()).toBe(0);
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('affiliator_token'),
      id: localStorage.getItem('affiliator_id'),
    }));
    expect(stored.token).toBeTruthy();
    expect(stored.id).toBeTruthy();
    await page.getByRole('button', { name: 'Detailed Reports' }).click();
    const soon = page.getByRole('dialog', { name: 'Feature Coming Soon' });
    await soon.getByRole('button', { name: 'Got it' }).click();
    await soon.waitFor({ state: 'hidden' });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The operator verifies; the next visit can create links.
    expect((await server.admin('affiliate:verify', email)).code).toBe(0);
    await page.reload();
    await page.getByRole('button', { name: 'Create Link' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Referral Link' });
    await create.getByLabel('Link Name').fill('  Blog ');
    const code = `pat-${stamp}`;
    await create.getByLabel('Custom Code').fill(` ${code} `);
    // A click beside the dialog does not close it.
    await page.mouse.click(5, 5);
    await create.getByRole('button', { name: 'Create Link' }).click();
    await create.waitFor({ state: 'hidden' });
    const row = page.getByRole('row', { name: /Blog/ });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).innerText()).toContain(`/${code}`);

    await row.getByRole('button', { name: `Copy link ${server.url}/${code}` }).click();
    await row.getByText('Copied!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/${code}`);
    await row.getByText('Copied!').waitFor({ state: 'detached', timeout: 5_000 });

    await row.getByRole('button', { name: 'Rename Blog' }).click();
    await page.getByLabel('New name of Blog').fill('  Newsletter ');
    await page.getByRole('button', { name: 'Save' }).click();
    const renamed = page.getByRole('row', { name: /Newsletter/ });
    await renamed.waitFor();

    // A visitor follows the link, signs up and buys $100 of credits.
    const visitor = await openPage(browser);
    await visitor.setExtraHTTPHeaders({
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    });
    await visitor.goto(`${server.url}/${code}`);
    await visitor.waitForURL(`${server.url}/`);
    await visitor.getByRole('link', { name: 'Start Building Now' }).first().click();
    await visitor.getByRole('banner').getByRole('button', { name: 'Sign up', exact: true }).click();
    const signUp = visitor.getByRole('dialog', { name: 'Create your account' });
    await signUp.getByLabel('Full Name').fill('Referred Customer');
    await signUp.getByLabel('Email Address').fill(`customer.${stamp}@acme-e2e.dev`);
    await signUp.getByLabel('Password').fill(PASSWORD);
    await signUp.getByRole('button', { name: 'Create Account & Claim FREE Credits' }).click();
    await visitor.waitForURL('**/registration-onboarding');
    const token = await visitor.evaluate(
      () => localStorage.getItem('atelier_token') ?? sessionStorage.getItem('atelier_token'),
    );
    await buyCredits(server.url, token ?? '', 100);
    await visitor.close();

    // The dashboard: one conversion, 10% of $100 at tier 1, the customer listed as active.
    await page.reload();
    const converted = page.getByRole('row', { name: /Newsletter/ });
    await converted.waitFor();
    const cells = await converted.getByRole('cell').allInnerTexts();
    expect(cells.slice(2, 6)).toEqual(['1', '1', '1', '$10.00']);
    const performance = page.getByRole('region', { name: 'Your Performance' });
    await performance.getByText('Tier 1: Starter (10%)').waitFor();
    expect(await performance.getByText('$10.00').count()).toBeGreaterThanOrEqual(2);
    await performance.getByText('$100.00').waitFor();
    await converted.getByRole('button', { name: 'View users of Newsletter' }).click();
    const users = page.getByRole('dialog', { name: 'Users: Newsletter' });
    const customer = users.getByRole('row', { name: /Referred Customer/ });
    await customer.waitFor();
    expect(await customer.getByRole('cell').nth(3).innerText()).toBe('Active');
    await users.getByRole('tab', { name: 'Affiliators' }).click();
    await users.getByText('No affiliators have registered through this link yet.').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await converted.getByRole('button', { name: 'Archive Newsletter' }).click();
    const archive = page.getByRole('dialog', { name: 'Archive referral link?' });
    await archive.getByText('User data and statistics will be preserved').waitFor();
    await archive.getByRole('button', { name: 'Archive' }).click();
    await page.getByText('No referral links yet').waitFor();

    // Logout: the stored token and id are gone and /affiliate shows Login again.
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/affiliate$/);
    await page.getByRole('banner').getByRole('button', { name: 'Login' }).click();
    expect(await page.evaluate(() => localStorage.getItem('affiliator_token'))).toBeNull();
    const login = page.getByRole('dialog', { name: 'Affiliate Login' });
    await login.getByLabel('Email').fill(email);
    await login.getByLabel('Password').fill('not the password');
    await login.getByRole('button', { name: 'Login' }).click();
    await login.getByText('Failed to login. Please check your credentials.').waitFor();
    await login.getByLabel('Password').fill(PASSWORD);
    await login.getByRole('button', { name: 'Login' }).click();
    await login.waitFor({ state: 'hidden' });
    await page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL('**/affiliate/dashboard');

    // The session ends elsewhere (another tab logs out): the next visit clears the stored login and says so.
    const kept = await page.evaluate(() => localStorage.getItem('affiliator_token'));
    const revoked = await fetch(`${server.url}/api/affiliate/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${kept}` },
    });
    expect(revoked.status).toBe(200);
    await page.reload();
    await page.getByText('Failed to fetch affiliate').waitFor();
    await page.waitForURL(/\/affiliate$/);
    expect(
      await page.evaluate(() => [localStorage.getItem('affiliator_token'), localStorage.getItem('affiliator_id')]),
    ).toEqual([null, null]);
    await page.close();
  }, 90_000);

  it('shows the Action Failed dialog with the server’s reason when a registration is refused', async () => {
    const { server, browser } = suite;
    const email = `taken.${Date.now()}@partners.example`;
    const first = await fetch(`${server.url}/api/affiliate/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ full_name: 'Taken', email, password: PASSWORD, whatsapp: '+1 2025550123' }),
    });
    expect(first.status).toBe(200);
    const page = await openPage(browser);
    await page.goto(`${server.url}/affiliate`);
    const form = page.locator('form[aria-labelledby="register-heading"]');
    await form.getByLabel('Full Name').fill('Taken Again');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('textbox', { name: 'WhatsApp Number' }).fill('+49 30 901820');
    await form.getByRole('button', { name: 'Submit' }).click();
    const failed = page.getByRole('dialog', { name: 'Action Failed' });
    await failed.getByText('An affiliate account with this email already exists.').waitFor();
    await failed
      .getByText('Please check your information and try again. If the problem persists, please contact support.')
      .waitFor();
    await failed.getByRole('button', { name: 'OK' }).click();
    await failed.waitFor({ state: 'hidden' });
    // Nothing typed is lost.
    expect(await form.getByLabel('Full Name').inputValue()).toBe('Taken Again');
    await page.close();
  });
});
