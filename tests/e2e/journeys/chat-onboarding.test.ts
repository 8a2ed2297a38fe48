import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { setup } from 'xstate';
import { LOGIN_PROMPT, SIGNUP_PROMPT, UPLOAD_PROMPT, withoutChoices } from '../../../openapi/chat-onboarding.ts';
import { ACCOUNT_QUESTION, GREETING, confirmation } from '../../../server/modules/chat-onboarding/flow.ts';
import { browserMissing, seriousAccessibilityViolations } from '../../support/browser.ts';
import { browserSuite, forgetEarlierVisits, pagesWithoutErrors } from '../../support/browser-suite.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../../support/fake-llm/index.ts';
import { journeyTests } from '../../support/journey.ts';
import { mailedLink } from '../../support/mail.ts';
import { TOKEN_KEY } from '../../../src/api/token-store.ts';
import { saveBerlinAddress } from '../../support/onboarding-page.ts';

// Journey 5: chat-only onboarding → upload → upgrade, in Chromium against the real server (hosted
// mode). A visitor comes from the landing page or the home page, describes the project, may ask a
// question, cancel a form, mistype a password; signs up or logs in inside the chat, uploads files,
// may reload, and says Let's go!: the workspace opens with the files and what the visitor described.

const PASSWORD = 'correct horse battery';
const PROJECT = 'A notes app for my team';
const FILES = [
  { name: 'app.ts', mimeType: 'text/plain', buffer: Buffer.from('export const greeting = "hello notes";\n') },
  { name: 'README.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n') },
];

const journey = setup({}).createMachine({
  id: 'chatOnboardingJourney',
  initial: 'landing',
  states: {
    landing: { on: { CHAT_FROM_LANDING: 'greeted', GO_HOME: 'home' } },
    home: { on: { CHAT_FROM_HOME: 'greeted' } },
    greeted: { on: { DESCRIBE: 'accountQuestion' } },
    accountQuestion: {
      on: { ASK: 'accountQuestion', CHOOSE_SIGN_UP: 'signUpForm', CHOOSE_LOG_IN: 'logInForm' },
    },
    signUpForm: { on: { CANCEL: 'accountQuestion', SIGN_UP: 'uploadStep' } },
    logInForm: { on: { CANCEL: 'accountQuestion', LOG_IN_WRONG: 'logInRefused', LOG_IN: 'uploadStep' } },
    logInRefused: { on: { DISMISS: 'logInForm' } },
    uploadStep: { on: { UPLOAD: 'confirmed' } },
    confirmed: { on: { RELOAD: 'confirmed', LETS_GO: 'workspace' } },
    workspace: { on: { REOPEN_BY_QUERY: 'workspace' } },
  },
});

interface World {
  page: Page;
  /** An account that exists before the visitor comes (for logging in inside the chat). */
  knownEmail: string;
  /** The account the chat signed up or logged in. */
  email: string;
}

const log = (page: Page) => page.getByRole('log', { name: 'Onboarding chat' });
const agentSays = (page: Page, text: string) => log(page).getByText(text, { exact: true });
const latestChoices = (page: Page) => log(page).getByRole('group', { name: 'Choices' }).last();
const signUpForm = (page: Page) => page.getByRole('form', { name: 'Create your account' });
const logInForm = (page: Page) => page.getByRole('form', { name: 'Log in' });
const accessible = async (page: Page) => expect(await seriousAccessibilityViolations(page)).toEqual([]);

describe.skipIf(browserMissing())('journey: chat-only onboarding → upload → upgrade', () => {
  const llm = new FakeLlm('fake-model');
  const suite = browserSuite({ mode: 'saas', llm });
  const openPage = pagesWithoutErrors();
  let visitors = 0;

  journeyTests<World>({
    model: journey,
    events: [
      'CHAT_FROM_LANDING',
      'GO_HOME',
      'CHAT_FROM_HOME',
      'DESCRIBE',
      'ASK',
      'CHOOSE_SIGN_UP',
      'CHOOSE_LOG_IN',
      'CANCEL',
      'SIGN_UP',
      'LOG_IN_WRONG',
      'DISMISS',
      'LOG_IN',
      'UPLOAD',
      'RELOAD',
      'LETS_GO',
      'REOPEN_BY_QUERY',
    ].map((type) => ({ type })),
    timeout: 180_000,

    async start() {
      const { server, browser } = suite;
      const knownEmail = `known.${Date.now()}.${++visitors}@acme-e2e.dev`;
      const registered = await fetch(`${server.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Known', email: knownEmail, password: PASSWORD }),
      });
      expect(registered.status).toBe(200);
      const page = await openPage(browser);
      await forgetEarlierVisits(page, server);
      await page.goto(`${server.url}/`);
      return { page, knownEmail, email: '' };
    },

    states: {
      async landing({ page }) {
        await page.getByRole('link', { name: 'Describe it in a chat' }).first().waitFor();
      },
      async home({ page }) {
        await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
        await page.getByRole('link', { name: 'Describe it in a chat' }).waitFor();
      },
      async greeted({ page }) {
        await page.waitForURL(/\/onboarding\?conversation=[0-9a-f-]{36}$/);
        await page.getByRole('heading', { name: 'Chat / Onboarding' }).waitFor();
        await agentSays(page, GREETING).waitFor();
        // The chat is a page of its own: no sidebar, no menus.
        expect(await page.getByRole('navigation', { name: 'Workspace menu' }).count()).toBe(0);
        await accessible(page);
      },
      async accountQuestion({ page }) {
        // Only the latest agent message's choices can be pressed.
        await expect
          .poll(() => latestChoices(page).getByRole('button', { name: 'Create an account' }).isEnabled())
          .toBe(true);
        const groups = log(page).getByRole('group', { name: 'Choices' });
        for (let i = 0; i < (await groups.count()) - 1; i++)
          expect(await groups.nth(i).getByRole('button').first().isDisabled()).toBe(true);
        expect(await signUpForm(page).count()).toBe(0);
        expect(await logInForm(page).count()).toBe(0);
      },
      async signUpForm({ page }) {
        await agentSays(page, SIGNUP_PROMPT).last().waitFor();
        await signUpForm(page).getByLabel('Full name').waitFor();
        await accessible(page);
      },
      async logInForm({ page }) {
        await agentSays(page, LOGIN_PROMPT).last().waitFor();
        await logInForm(page).getByLabel('Email').waitFor();
        expect(await page.getByRole('alert').count()).toBe(0);
      },
      async logInRefused({ page }) {
        await page.getByRole('alert').getByText('Login failed. Please check your credentials.').waitFor();
        await accessible(page);
      },
      async uploadStep({ page }) {
        await agentSays(page, UPLOAD_PROMPT).waitFor({ timeout: 30_000 });
        // Signed in by the chat: the token is kept like any sign-in's.
        expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBeTruthy();
        await page.getByRole('form', { name: 'Your project files' }).getByLabel('Project files').waitFor();
        await accessible(page);
      },
      async confirmed({ page }) {
        await log(page)
          .getByText(withoutChoices(confirmation(PROJECT, ['README.md', 'app.ts'])))
          .waitFor();
        await latestChoices(page).getByRole('button', { name: "Let's go!" }).waitFor();
        expect(await agentSays(page, GREETING).count()).toBe(1);
        // The account is not active yet: the chat says so before Let's go! is pressed, with the way there.
        await page
          .getByRole('region', { name: 'Before your workspace opens' })
          .getByRole('link', { name: 'Complete registration' })
          .waitFor();
      },
      async workspace({ page }) {
        await page.waitForURL(/\/experiment\/conversations\/[0-9a-f]{32}$/, { timeout: 30_000 });
        const messages = page.getByRole('log', { name: 'Messages' });
        await messages.getByText(`${PROJECT}`, { exact: false }).first().waitFor({ timeout: 60_000 });
        await messages.getByText('My project files: README.md, app.ts').waitFor({ timeout: 60_000 });
        await messages.getByText('Your files are here.').waitFor({ timeout: 60_000 });
      },
    },

    steps: {
      async CHAT_FROM_LANDING({ page }) {
        await page.getByRole('link', { name: 'Describe it in a chat' }).first().click();
      },
      async GO_HOME({ page }) {
        await page.getByRole('link', { name: 'Start Building Now' }).first().click();
        await page.waitForURL('**/dashboard');
      },
      async CHAT_FROM_HOME({ page }) {
        await page.getByRole('link', { name: 'Describe it in a chat' }).click();
      },
      async DESCRIBE({ page }) {
        const input = page.getByRole('textbox', { name: 'Message' });
        await input.fill(PROJECT);
        await page.getByRole('button', { name: 'Send' }).click();
        await log(page).getByText(PROJECT).waitFor();
        await log(page).getByText('Thanks, that sounds like a great project.', { exact: false }).waitFor();
      },
      async ASK({ page }) {
        // A question in between is answered by the operator's model; the server ends the answer with the step's choices again.
        const groups = await log(page).getByRole('group', { name: 'Choices' }).count();
        llm.enqueue(reply.text('Atelier charges only for what the agent uses.', { when: withoutTools }));
        const input = page.getByRole('textbox', { name: 'Message' });
        await input.fill('Is it expensive?');
        await input.press('Enter');
        await log(page)
          .getByText('Atelier charges only for what the agent uses.', { exact: false })
          .waitFor({ timeout: 30_000 });
        await expect.poll(() => log(page).getByRole('group', { name: 'Choices' }).count()).toBe(groups + 1);
      },
      async CHOOSE_SIGN_UP({ page }) {
        await latestChoices(page).getByRole('button', { name: 'Create an account' }).click();
      },
      async CHOOSE_LOG_IN({ page }) {
        await latestChoices(page).getByRole('button', { name: 'I have an account' }).click();
      },
      async CANCEL({ page }) {
        const questions = await agentSays(page, withoutChoices(ACCOUNT_QUESTION)).count();
        await page.getByRole('form').getByRole('button', { name: 'Cancel' }).click();
        // The rewind: the agent asks again.
        await expect.poll(() => agentSays(page, withoutChoices(ACCOUNT_QUESTION)).count()).toBe(questions + 1);
      },
      async SIGN_UP(world) {
        world.email = `chat.${Date.now()}@acme-e2e.dev`;
        const form = signUpForm(world.page);
        await form.getByLabel('Full name').fill('Ada Lovelace');
        await form.getByLabel('Email').fill(world.email);
        await form.getByLabel('Password').fill(PASSWORD);
        await form.getByRole('button', { name: 'Create account' }).click();
      },
      async LOG_IN_WRONG({ page, knownEmail }) {
        const form = logInForm(page);
        await form.getByLabel('Email').fill(knownEmail);
        await form.getByLabel('Password').fill('not the password');
        await form.getByRole('button', { name: 'Log in' }).click();
      },
      async DISMISS({ page }) {
        await page.getByRole('button', { name: 'Dismiss' }).click();
      },
      async LOG_IN(world) {
        world.email = world.knownEmail;
        const form = logInForm(world.page);
        await form.getByLabel('Email').fill(world.knownEmail);
        await form.getByLabel('Password').fill(PASSWORD);
        await form.getByRole('button', { name: 'Log in' }).click();
      },
      async UPLOAD({ page }) {
        const upload = page.getByRole('form', { name: 'Your project files' });
        await upload.getByLabel('Project files').setInputFiles(FILES);
        await upload.getByRole('button', { name: 'Upload' }).click();
      },
      async RELOAD({ page }) {
        // The chat reopens where it was, without greeting again.
        await page.reload();
      },
      async LETS_GO({ page, email }) {
        const { server } = suite;
        // The chat leads through what the account still lacks: registration onboarding first, and back.
        const handOff = page.getByRole('region', { name: 'Before your workspace opens' });
        await handOff.getByRole('link', { name: 'Complete registration' }).click();
        await page.waitForURL(/\/registration-onboarding\?chat=/);
        await page.getByText('Step 1 of 2').waitFor();
        await page.getByLabel('Country').selectOption({ label: 'Germany' });
        await page.getByRole('button', { name: 'Agree & continue' }).click();
        await page.getByRole('button', { name: 'Add name and address' }).click();
        const contact = page.getByRole('dialog', { name: 'Contact information' });
        if ((await contact.getByLabel('Profile type').inputValue()) === 'Organization')
          await contact.getByLabel('Organization name').fill('Acme GmbH');
        await saveBerlinAddress(contact);
        await page.getByRole('button', { name: 'Start Free' }).click();
        await page.waitForURL(/\/onboarding\?conversation=/);
        // Then the email: the link, opened in another tab as from the mail, verifies it.
        await handOff.getByText("Verify your email address, then press Let's go! again.").waitFor();
        await handOff.getByRole('button', { name: 'Send a new link' }).waitFor();
        await accessible(page);
        const mail = await page.context().newPage();
        await mail.goto(`${server.url}${await mailedLink(server, email)}`);
        await mail.getByText('is verified', { exact: false }).waitFor({ timeout: 30_000 });
        await mail.close();
        expect((await server.admin('grant-credits', email, '5')).code).toBe(0);
        llm.enqueue(
          reply.text('Notes app', { when: withoutTools }),
          reply.toolCall(
            'execute_bash',
            { command: 'cat app.ts README.md', security_risk: 'LOW' },
            { when: withTools },
          ),
          reply.toolCall('finish', { message: 'Your files are here.', task_completed: 'true' }, { when: withTools }),
        );
        await latestChoices(page).getByRole('button', { name: "Let's go!" }).click();
        // Welcomed once, in the workspace as it is now (the account was activated after this page signed in).
        await page.getByText('Welcome! Your workspace is ready', { exact: false }).waitFor({ timeout: 30_000 });
        // The agent's command read the uploaded files in the workspace (its output folds away in the chat).
        await page
          .getByRole('log', { name: 'Messages' })
          .getByText('export const greeting = "hello notes";', { exact: false })
          .first()
          .waitFor({ state: 'attached', timeout: 60_000 });
      },
      async REOPEN_BY_QUERY({ page }) {
        // The same conversation, named by the query parameter (spec §1).
        const conversationId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
        await page.goto(`${suite.server.url}/experiment/conversations/?conversation=${conversationId}`);
        await page.waitForURL(`**/experiment/conversations/${conversationId}`);
      },
    },
  });
});
