import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { setup } from 'xstate';
import { browserMissing, seriousAccessibilityViolations } from '../../support/browser.ts';
import { browserSuite, forgetEarlierVisits, pagesWithoutErrors } from '../../support/browser-suite.ts';
import { journeyTests } from '../../support/journey.ts';
import { saveTestCard } from '../../support/server.ts';
import { TOKEN_KEY } from '../../../src/api/token-store.ts';

// Journey 4: an affiliate registers → is verified → creates a link → a visitor comes through
// /{code} → signs up → buys credits → the commission shows on the affiliate's dashboard. On the
// way: a phone number the country refuses, an email already registered (nothing typed is lost),
// the coming-soon reports, copying and renaming the link, its users, archiving it, logging out
// and in again (a wrong password first), a session ended in another tab, and the operator
// turning the application down after it earned.

const PASSWORD = 'correct horse battery';

const journey = setup({}).createMachine({
  id: 'affiliateJourney',
  initial: 'affiliatePage',
  states: {
    affiliatePage: { on: { OPEN_REGISTER: 'registerForm' } },
    registerForm: {
      on: { SUBMIT_BAD_PHONE: 'phoneRefused', SUBMIT_TAKEN_EMAIL: 'registrationFailed', SUBMIT: 'underReview' },
    },
    phoneRefused: { on: { SUBMIT: 'underReview' } },
    registrationFailed: { on: { DISMISS: 'registerForm' } },
    underReview: {
      on: {
        OPEN_REPORTS: 'comingSoon',
        VERIFY: 'verified',
        LOG_OUT: 'loggedOut',
        SESSION_ENDS_ELSEWHERE: 'sessionLost',
      },
    },
    comingSoon: { on: { GOT_IT: 'underReview' } },
    loggedOut: { on: { LOG_IN_WRONG: 'loginRefused', LOG_IN: 'underReview' } },
    loginRefused: { on: { LOG_IN: 'underReview' } },
    sessionLost: {},
    verified: { on: { CREATE_LINK: 'linkCreated' } },
    linkCreated: { on: { COPY_LINK: 'linkCreated', RENAME_LINK: 'linkCreated', VISITOR_FOLLOWS: 'visitorOnLanding' } },
    visitorOnLanding: { on: { VISITOR_SIGNS_UP: 'visitorRegistered' } },
    visitorRegistered: { on: { VISITOR_BUYS: 'commissionEarned' } },
    commissionEarned: { on: { VIEW_USERS: 'linkUsers', ARCHIVE_LINK: 'archived', REJECT: 'rejected' } },
    linkUsers: { on: { CLOSE_USERS: 'commissionEarned' } },
    archived: {},
    rejected: {},
  },
});

interface World {
  page: Page;
  email: string;
  code: string;
  linkName: string;
  visitor: Page | null;
}

const accessible = async (page: Page) => expect(await seriousAccessibilityViolations(page)).toEqual([]);
const registerForm = (page: Page) => page.locator('form[aria-labelledby="register-heading"]');
const linkRow = (world: World) => world.page.getByRole('row', { name: new RegExp(world.linkName) });
const storedLogin = (page: Page) =>
  page.evaluate(() => [localStorage.getItem('affiliator_token'), localStorage.getItem('affiliator_id')]);

async function fillRegistration(page: Page, email: string, phone: string) {
  const form = registerForm(page);
  await form.getByLabel('Full Name').fill('Pat Partner');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('textbox', { name: 'WhatsApp Number' }).fill(phone);
  await form.getByRole('button', { name: 'Submit' }).click();
}

async function logIn(page: Page, email: string, password: string) {
  const login = page.getByRole('dialog', { name: 'Affiliate Login' });
  if (!(await login.isVisible())) await page.getByRole('banner').getByRole('button', { name: 'Login' }).click();
  await login.getByLabel('Email').fill(email);
  await login.getByLabel('Password').fill(password);
  await login.getByRole('button', { name: 'Login' }).click();
}

describe.skipIf(browserMissing())('journey: affiliate → link → referred visitor → purchase → commission', () => {
  const suite = browserSuite({ mode: 'saas' });
  const openPage = pagesWithoutErrors();
  let affiliates = 0;

  journeyTests<World>({
    model: journey,
    events: [
      'OPEN_REGISTER',
      'SUBMIT_BAD_PHONE',
      'SUBMIT_TAKEN_EMAIL',
      'SUBMIT',
      'DISMISS',
      'OPEN_REPORTS',
      'GOT_IT',
      'VERIFY',
      'LOG_OUT',
      'LOG_IN_WRONG',
      'LOG_IN',
      'SESSION_ENDS_ELSEWHERE',
      'CREATE_LINK',
      'COPY_LINK',
      'RENAME_LINK',
      'VISITOR_FOLLOWS',
      'VISITOR_SIGNS_UP',
      'VISITOR_BUYS',
      'VIEW_USERS',
      'CLOSE_USERS',
      'ARCHIVE_LINK',
      'REJECT',
    ].map((type) => ({ type })),
    timeout: 150_000,

    async start() {
      const { server, browser } = suite;
      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const stamp = `${Date.now()}-${++affiliates}`;
      const page = await openPage(browser);
      await forgetEarlierVisits(page, server);
      await page.goto(`${server.url}/affiliate`);
      return {
        page,
        email: `partner.${stamp}@partners.example`,
        code: `pat-${stamp}`,
        linkName: 'Blog',
        visitor: null,
      };
    },

    states: {
      async affiliatePage({ page }) {
        await page.getByRole('banner').getByRole('button', { name: 'Login' }).waitFor();
        // The tiers as the server pays them: exactly $50,000 of the month is already tier 2.
        await page.getByText('$50,000 to under $250,000 per month').waitFor();
        await accessible(page);
      },
      async registerForm({ page }) {
        await page.waitForURL('**/affiliate#register');
        const whatsapp = registerForm(page).getByRole('textbox', { name: 'WhatsApp Number' });
        expect(await whatsapp.getAttribute('placeholder')).toBe('[Country Code] [Phone Number]');
        expect(await page.getByRole('dialog').count()).toBe(0);
      },
      async phoneRefused({ page }) {
        await registerForm(page).getByText('Enter a valid phone number for the chosen country.').waitFor();
      },
      async registrationFailed({ page }) {
        const failed = page.getByRole('dialog', { name: 'Action Failed' });
        await failed.getByText('An affiliate account with this email already exists.').waitFor();
        await failed
          .getByText('Please check your information and try again. If the problem persists, please contact support.')
          .waitFor();
      },
      async underReview({ page }) {
        // Registered (or logged in) with remember me, on the dashboard, under review.
        await page.waitForURL('**/affiliate/dashboard');
        await page.getByText('You need to be verified to create referral links').waitFor();
        expect(await page.getByRole('button', { name: 'Create Link' }).count()).toBe(0);
        expect((await storedLogin(page)).every(Boolean)).toBe(true);
        expect(await page.getByRole('dialog').count()).toBe(0);
      },
      async comingSoon({ page }) {
        await page.getByRole('dialog', { name: 'Feature Coming Soon' }).waitFor();
        await accessible(page);
      },
      async loggedOut({ page }) {
        await page.waitForURL(/\/affiliate$/);
        await page.getByRole('banner').getByRole('button', { name: 'Login' }).waitFor();
        expect(await storedLogin(page)).toEqual([null, null]);
      },
      async loginRefused({ page }) {
        await page
          .getByRole('dialog', { name: 'Affiliate Login' })
          .getByText('Failed to login. Please check your credentials.')
          .waitFor();
      },
      async sessionLost({ page }) {
        // The next visit clears the stored login and says so.
        await page.getByText('Failed to fetch affiliate').waitFor();
        await page.waitForURL(/\/affiliate$/);
        expect(await storedLogin(page)).toEqual([null, null]);
      },
      async verified({ page }) {
        await page.getByRole('button', { name: 'Create Link' }).waitFor();
        await page.getByText('No referral links yet').waitFor();
      },
      async linkCreated(world) {
        await linkRow(world).waitFor();
        expect(await linkRow(world).getByRole('cell').nth(1).innerText()).toContain(`/${world.code}`);
        expect(await world.page.getByRole('dialog').count()).toBe(0);
      },
      async visitorOnLanding({ visitor }) {
        await visitor?.getByRole('link', { name: 'Start Building Now' }).first().waitFor();
      },
      async visitorRegistered({ visitor }) {
        await visitor?.waitForURL('**/registration-onboarding');
      },
      async commissionEarned(world) {
        // One click, one sign-up, one paying customer: 10% of $100 at tier 1.
        const row = linkRow(world);
        await row.waitFor();
        expect((await row.getByRole('cell').allInnerTexts()).slice(2, 6)).toEqual(['1', '1', '1', '$10.00']);
        const performance = world.page.getByRole('region', { name: 'Your Performance' });
        await performance.getByText('Tier 1: Starter (10%)').waitFor();
        expect(await performance.getByText('$10.00').count()).toBeGreaterThanOrEqual(2);
        await performance.getByText('$100.00').waitFor();
        expect(await world.page.getByRole('dialog').count()).toBe(0);
      },
      async linkUsers(world) {
        const users = world.page.getByRole('dialog', { name: `Users: ${world.linkName}` });
        const customer = users.getByRole('row', { name: /Referred Customer/ });
        await customer.waitFor();
        expect(await customer.getByRole('cell').nth(3).innerText()).toBe('Active');
        // Every column shows, on a desktop and on a phone: nothing in the dialog scrolls sideways.
        const scrolling = () =>
          users.evaluate(
            (dialog) =>
              [dialog, ...dialog.querySelectorAll('*')].filter(
                (node) =>
                  node.scrollWidth > node.clientWidth + 1 &&
                  ['auto', 'scroll'].includes(getComputedStyle(node).overflowX),
              ).length,
          );
        expect(await scrolling()).toBe(0);
        const desktop = world.page.viewportSize();
        await world.page.setViewportSize({ width: 390, height: 844 });
        expect(await scrolling()).toBe(0);
        const dialogBox = await users.boundingBox();
        for (const cell of await customer.getByRole('cell').all()) {
          const box = await cell.boundingBox();
          expect(box && dialogBox && box.x + box.width <= dialogBox.x + dialogBox.width + 0.5).toBe(true);
        }
        if (desktop) await world.page.setViewportSize(desktop);
        await users.getByRole('tab', { name: 'Affiliators' }).click();
        await users.getByText('No affiliators have registered through this link yet.').waitFor();
        await accessible(world.page);
      },
      async archived({ page }) {
        await page.getByText('No referral links yet').waitFor();
      },
      async rejected(world) {
        // The dashboard says why the links stopped; what was earned before stays in the totals.
        const banner = world.page.getByRole('region', { name: 'Application not accepted' });
        await banner.getByText(/From then on your links bring in no new customers and earn no commission/).waitFor();
        await world.page.getByRole('region', { name: 'Your Performance' }).getByText('$100.00').waitFor();
        expect(await world.page.getByRole('button', { name: 'Create Link' }).count()).toBe(0);
        await accessible(world.page);
      },
    },

    steps: {
      async OPEN_REGISTER({ page }) {
        await page.getByRole('banner').getByRole('link', { name: 'Register' }).click();
      },
      async SUBMIT_BAD_PHONE({ page, email }) {
        // The phone input starts with the United States' code.
        expect(await registerForm(page).getByRole('textbox', { name: 'WhatsApp Number' }).inputValue()).toBe('+1 ');
        await fillRegistration(page, email, '+1 12');
      },
      async SUBMIT_TAKEN_EMAIL({ page, email }) {
        const first = await fetch(`${suite.server.url}/api/affiliate/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ full_name: 'Taken', email, password: PASSWORD, whatsapp: '+1 2025550123' }),
        });
        expect(first.status).toBe(200);
        await fillRegistration(page, email, '+49 30 901820');
      },
      async SUBMIT(world) {
        await fillRegistration(world.page, world.email, '+1 2025550123');
      },
      async DISMISS(world) {
        const failed = world.page.getByRole('dialog', { name: 'Action Failed' });
        await failed.getByRole('button', { name: 'OK' }).click();
        await failed.waitFor({ state: 'hidden' });
        // Nothing typed is lost; the next submission is with another address.
        expect(await registerForm(world.page).getByLabel('Full Name').inputValue()).toBe('Pat Partner');
        world.email = world.email.replace('partner.', 'partner.again.');
      },
      async OPEN_REPORTS({ page }) {
        await page.getByRole('button', { name: 'Detailed Reports' }).click();
      },
      async GOT_IT({ page }) {
        const soon = page.getByRole('dialog', { name: 'Feature Coming Soon' });
        await soon.getByRole('button', { name: 'Got it' }).click();
        await soon.waitFor({ state: 'hidden' });
      },
      async VERIFY({ page, email }) {
        // The operator verifies; the next visit can create links.
        expect((await suite.server.admin('affiliate:verify', email)).code).toBe(0);
        await page.reload();
      },
      async REJECT({ page, email }) {
        expect((await suite.server.admin('affiliate:reject', email)).code).toBe(0);
        await page.reload();
      },
      async LOG_OUT({ page }) {
        await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
      },
      async LOG_IN_WRONG({ page, email }) {
        await logIn(page, email, 'not the password');
      },
      async LOG_IN({ page, email }) {
        await logIn(page, email, PASSWORD);
        await page.getByRole('dialog', { name: 'Affiliate Login' }).waitFor({ state: 'hidden' });
        await page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).click();
      },
      async SESSION_ENDS_ELSEWHERE({ page }) {
        // Another tab logs out: the stored token no longer opens the dashboard.
        const kept = await page.evaluate(() => localStorage.getItem('affiliator_token'));
        const revoked = await fetch(`${suite.server.url}/api/affiliate/logout`, {
          method: 'POST',
          headers: { authorization: `Bearer ${kept}` },
        });
        expect(revoked.status).toBe(200);
        await page.reload();
      },
      async CREATE_LINK({ page, code }) {
        await page.getByRole('button', { name: 'Create Link' }).click();
        const create = page.getByRole('dialog', { name: 'Create New Referral Link' });
        await create.getByLabel('Link Name').fill('  Blog ');
        await create.getByLabel('Custom Code').fill(` ${code} `);
        // A click beside the dialog does not close it.
        await page.mouse.click(5, 5);
        await create.getByRole('button', { name: 'Create Link' }).click();
        await create.waitFor({ state: 'hidden' });
      },
      async COPY_LINK(world) {
        const row = linkRow(world);
        const link = `${suite.server.url}/${world.code}`;
        await row.getByRole('button', { name: `Copy link ${link}` }).click();
        await row.getByText('Copied!').waitFor();
        expect(await world.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
        await row.getByText('Copied!').waitFor({ state: 'detached', timeout: 5_000 });
      },
      async RENAME_LINK(world) {
        const renamed = world.linkName === 'Blog' ? 'Newsletter' : 'Blog';
        await linkRow(world)
          .getByRole('button', { name: `Rename ${world.linkName}` })
          .click();
        await world.page.getByLabel(`New name of ${world.linkName}`).fill(`  ${renamed} `);
        await world.page.getByRole('button', { name: 'Save' }).click();
        world.linkName = renamed;
      },
      async VISITOR_FOLLOWS(world) {
        const visitor = await openPage(suite.browser);
        world.visitor = visitor;
        await visitor.setExtraHTTPHeaders({
          'user-agent':
            'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
        });
        await visitor.goto(`${suite.server.url}/${world.code}`);
        await visitor.waitForURL(`${suite.server.url}/`);
      },
      async VISITOR_SIGNS_UP({ visitor, code }) {
        if (!visitor) throw new Error('no visitor');
        await visitor.getByRole('link', { name: 'Start Building Now' }).first().click();
        await visitor.getByRole('banner').getByRole('button', { name: 'Sign up', exact: true }).click();
        const signUp = visitor.getByRole('dialog', { name: 'Create your account' });
        await signUp.getByLabel('Full Name').fill('Referred Customer');
        await signUp.getByLabel('Email Address').fill(`customer.${code}@acme-e2e.dev`);
        await signUp.getByLabel('Password').fill(PASSWORD);
        await signUp.getByRole('button', { name: 'Create Account & Claim FREE Credits' }).click();
      },
      async VISITOR_BUYS(world) {
        const token = await world.visitor?.evaluate(
          (key) => localStorage.getItem(key) ?? sessionStorage.getItem(key),
          TOKEN_KEY,
        );
        // A purchase as the application makes it: contact and test card saved in onboarding, then $100 bought.
        await saveTestCard(suite.server, token ?? '', 'Referred Customer');
        const bought = await fetch(`${suite.server.url}/api/auth/purchase-credits`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ amount: 100 }),
        });
        expect(bought.status).toBe(200);
        await world.visitor?.close();
        world.visitor = null;
        await world.page.reload();
      },
      async VIEW_USERS(world) {
        // The row's actions are drawn icons, not characters that need an emoji font.
        for (const name of [
          `View users of ${world.linkName}`,
          `Rename ${world.linkName}`,
          `Archive ${world.linkName}`,
        ]) {
          const icon = linkRow(world).getByRole('button', { name }).locator('[aria-hidden="true"]');
          expect(await icon.evaluate((node) => node.tagName.toLowerCase())).toBe('svg');
        }
        await linkRow(world)
          .getByRole('button', { name: `View users of ${world.linkName}` })
          .click();
      },
      async CLOSE_USERS({ page }) {
        await page.keyboard.press('Escape');
      },
      async ARCHIVE_LINK(world) {
        await linkRow(world)
          .getByRole('button', { name: `Archive ${world.linkName}` })
          .click();
        const archive = world.page.getByRole('dialog', { name: 'Archive referral link?' });
        await archive.getByText('User data and statistics will be preserved').waitFor();
        await archive.getByRole('button', { name: 'Archive' }).click();
      },
    },
  });
});
