import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LOGIN_PROMPT, SIGNUP_PROMPT, UPLOAD_PROMPT, withoutChoices } from '../../openapi/chat-onboarding.ts';
import { ACCOUNT_QUESTION, GREETING, confirmation } from '../../server/modules/chat-onboarding/flow.ts';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { browserSuite, pagesWithoutErrors } from '../support/browser-suite.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';
import { mailedLink } from '../support/mail.ts';

// The chat-only onboarding in Chromium against the real server (hosted mode), the new
// conversation's model the fake one: a visitor comes from the landing page, describes the
// project, cancels the signup form once (the rewind), signs up inside the chat, uploads files and
// says Let's go!; the workspace opens with the files and what the visitor described.

const PASSWORD = 'correct horse battery';
const log = (page: Page) => page.getByRole('log', { name: 'Onboarding chat' });
const agentSays = (page: Page, text: string) => log(page).getByText(text, { exact: true });

describe.skipIf(browserMissing())('the chat-only onboarding in the browser', () => {
  const llm = new FakeLlm('fake-model');
  const suite = browserSuite({ mode: 'saas', llm });
  const openPage = pagesWithoutErrors();

  it(
    'takes a visitor from the landing page through the chat: signup (after a cancelled form), upload, Let’s go! into a workspace with the files',
    { timeout: 180_000 },
    async () => {
      const { server, browser } = suite;
      const page = await openPage(browser);
      await page.goto(`${server.url}/`);
      await page.getByRole('link', { name: 'Describe it in a chat' }).first().click();
      await page.waitForURL(/\/onboarding\?conversation=[0-9a-f-]{36}$/);
      await page.getByRole('heading', { name: 'Chat / Onboarding' }).waitFor();
      await agentSays(page, GREETING).waitFor();
      // The chat is a page of its own: no sidebar, no menus.
      expect(await page.getByRole('navigation', { name: 'Workspace menu' }).count()).toBe(0);

      const input = page.getByRole('textbox', { name: 'Message' });
      await input.fill('A notes app for my team');
      await input.press('Enter');
      await log(page).getByText('A notes app for my team').waitFor();
      await log(page).getByText('Thanks, that sounds like a great project.', { exact: false }).waitFor();
      const choices = log(page).getByRole('group', { name: 'Choices' });
      await choices.getByRole('button', { name: 'Create an account' }).click();
      await agentSays(page, SIGNUP_PROMPT).waitFor();
      const signup = page.getByRole('form', { name: 'Create your account' });
      expect(await seriousAccessibilityViolations(page)).toEqual([]);

      // Cancelled: the agent asks again; only the latest message's choices can be pressed.
      await signup.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForFunction(
        (text) => [...document.querySelectorAll('[role="log"] p')].filter((p) => p.textContent === text).length === 2,
        withoutChoices(ACCOUNT_QUESTION),
      );
      expect(await signup.count()).toBe(0);
      await expect
        .poll(() => choices.nth(0).getByRole('button', { name: 'Create an account' }).isDisabled())
        .toBe(true);
      await expect.poll(() => choices.nth(1).getByRole('button', { name: 'Create an account' }).isEnabled()).toBe(true);

      await choices.nth(1).getByRole('button', { name: 'Create an account' }).click();
      const email = `chat.${Date.now()}@acme-e2e.dev`;
      await signup.getByLabel('Full name').fill('Ada Lovelace');
      await signup.getByLabel('Email').fill(email);
      await signup.getByLabel('Password').fill(PASSWORD);
      await signup.getByRole('button', { name: 'Create account' }).click();
      await agentSays(page, `${UPLOAD_PROMPT}`).waitFor({ timeout: 30_000 });
      // Signed in by the chat: the token is kept like any sign-in's.
      expect(await page.evaluate(() => localStorage.getItem('atelier_token'))).toBeTruthy();

      const upload = page.getByRole('form', { name: 'Your project files' });
      await upload.getByLabel('Project files').setInputFiles([
        { name: 'app.ts', mimeType: 'text/plain', buffer: Buffer.from('export const greeting = "hello notes";\n') },
        { name: 'README.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n') },
      ]);
      await upload.getByRole('button', { name: 'Upload' }).click();
      const confirmed = confirmation('A notes app for my team', ['README.md', 'app.ts']);
      await log(page).getByText(withoutChoices(confirmed)).waitFor();

      // The account's registration onboarding and its credit, done elsewhere meanwhile; the chat reopens where it was.
      const verification = new URLSearchParams((await mailedLink(server, email)).split('?')[1]).get('token');
      const verified = await fetch(`${server.url}/api/auth/verify-email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: verification }),
      });
      expect(verified.status).toBe(200);
      expect((await server.admin('activate-user', email)).code).toBe(0);
      expect((await server.admin('grant-credits', email, '5')).code).toBe(0);
      await page.reload();
      await log(page).getByText(withoutChoices(confirmed)).waitFor();
      expect(await agentSays(page, GREETING).count()).toBe(1);

      llm.enqueue(
        reply.text('Notes app', { when: withoutTools }),
        reply.toolCall('execute_bash', { command: 'cat app.ts README.md', security_risk: 'LOW' }, { when: withTools }),
        reply.toolCall('finish', { message: 'Your files are here.', task_completed: 'true' }, { when: withTools }),
      );
      await log(page).getByRole('button', { name: "Let's go!" }).click();
      await page.waitForURL(/\/experiment\/conversations\/[0-9a-f]{32}$/, { timeout: 30_000 });
      await page.getByText('Welcome! Your workspace is ready', { exact: false }).waitFor();
      const messages = page.getByRole('log', { name: 'Messages' });
      await messages.getByText('My project files: README.md, app.ts').waitFor({ timeout: 60_000 });
      // The agent's command read the uploaded files in the workspace (its output folds away in the chat).
      await messages
        .getByText('export const greeting = "hello notes";', { exact: false })
        .first()
        .waitFor({ state: 'attached', timeout: 60_000 });
      await messages.getByText('Your files are here.').waitFor({ timeout: 60_000 });
      // The same conversation, named by the query parameter (spec §1).
      const conversationId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
      await page.goto(`${server.url}/experiment/conversations/?conversation=${conversationId}`);
      await page.waitForURL(`**/experiment/conversations/${conversationId}`);
      await page.getByRole('log', { name: 'Messages' }).getByText('Your files are here.').waitFor();
      await page.close();
    },
  );

  it(
    'offers the chat on the home page to a visitor, and logs an existing account in inside the chat',
    { timeout: 120_000 },
    async () => {
      const { server, browser } = suite;
      const email = `known.${Date.now()}@acme-e2e.dev`;
      const registered = await fetch(`${server.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Known', email, password: PASSWORD }),
      });
      expect(registered.status).toBe(200);

      const page = await openPage(browser);
      // The browser still holds the account the other test signed up: this visitor has none.
      await page.goto(`${server.url}/terms`);
      await page.evaluate(() => localStorage.clear());
      await page.goto(`${server.url}/dashboard`);
      await page.getByRole('link', { name: 'Describe it in a chat' }).click();
      await agentSays(page, GREETING).waitFor();
      const input = page.getByRole('textbox', { name: 'Message' });
      await input.fill('A shop for my bakery');
      await page.getByRole('button', { name: 'Send' }).click();
      // A question in between is answered by the operator's model, and the step stays.
      llm.enqueue(reply.text('Atelier charges only for what the agent uses.', { when: withoutTools }));
      await log(page).getByText('Thanks, that sounds like a great project.', { exact: false }).waitFor();
      await input.fill('Is it expensive?');
      await input.press('Enter');
      await agentSays(page, 'Atelier charges only for what the agent uses.').waitFor({ timeout: 30_000 });
      // Its choices come again with the answer.
      await expect.poll(() => log(page).getByRole('group', { name: 'Choices' }).count()).toBe(2);
      await log(page)
        .getByRole('group', { name: 'Choices' })
        .last()
        .getByRole('button', { name: 'I have an account' })
        .click();
      await agentSays(page, LOGIN_PROMPT).waitFor();
      const login = page.getByRole('form', { name: 'Log in' });
      await login.getByLabel('Email').fill(email);
      await login.getByLabel('Password').fill('not the password');
      await login.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').getByText('Login failed. Please check your credentials.').waitFor();
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await login.getByLabel('Password').fill(PASSWORD);
      await login.getByRole('button', { name: 'Log in' }).click();
      await agentSays(page, UPLOAD_PROMPT).waitFor({ timeout: 30_000 });
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    },
  );
});
