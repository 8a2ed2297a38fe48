import type { Page } from 'playwright-core';
import { beforeAll, afterAll, describe, expect } from 'vitest';
import { setup } from 'xstate';
import { browserMissing, seriousAccessibilityViolations } from '../../support/browser.ts';
import { browserSuite, pagesWithoutErrors } from '../../support/browser-suite.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../../support/fake-llm/index.ts';
import { journeyTests } from '../../support/journey.ts';

// Journey 3: settings → model → Test connection → conversation, in a self-hosted installation
// without LLM_* variables. The person opens the model settings (from the sidebar, or from the home
// page's AI settings dialog), enters the fake model, tests the connection (with a wrong key first,
// or not), saves, and a conversation started on the home page runs on that model with that key.

const DEFAULT_MODEL = 'anthropic/claude-sonnet-4-20250514';

const journey = setup({}).createMachine({
  id: 'modelSettingsJourney',
  initial: 'home',
  states: {
    home: { on: { OPEN_SETTINGS: 'settings', OPEN_DIALOG: 'dialog' } },
    dialog: { on: { SEE_ADVANCED: 'settings' } },
    settings: { on: { ENTER_MODEL: 'modelEntered' } },
    modelEntered: { on: { TEST_WRONG_KEY: 'refused', TEST_RIGHT_KEY: 'answered' } },
    refused: { on: { TEST_RIGHT_KEY: 'answered' } },
    answered: { on: { SAVE: 'saved' } },
    saved: { on: { RELOAD: 'saved', START_CONVERSATION: 'conversation' } },
    conversation: {},
  },
});

interface World {
  page: Page;
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Counts, in the page, the gains of the sounds it plays (the finish sound at volume 0.5). */
const RECORD_SOUNDS = () => {
  const played: number[] = [];
  Object.assign(window, { playedSounds: played });
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    override createGain() {
      const gain = super.createGain();
      queueMicrotask(() => played.push(gain.gain.value));
      return gain;
    }
  };
};
const playedSounds = (page: Page) =>
  page.evaluate(() => (window as unknown as { playedSounds: number[] }).playedSounds);

describe.skipIf(browserMissing())('journey: settings → model → Test connection → conversation', () => {
  const suite = browserSuite({ mode: 'oss' });
  const openPage = pagesWithoutErrors();
  const llm = new FakeLlm('fake-model');
  let llmUrl = '';
  beforeAll(async () => {
    llmUrl = await llm.start();
  });
  afterAll(() => llm.stop());
  const keyField = (page: Page) => page.getByLabel('API key', { exact: true });
  const saveButton = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });

  journeyTests<World>({
    model: journey,
    events: [
      'OPEN_SETTINGS',
      'OPEN_DIALOG',
      'SEE_ADVANCED',
      'ENTER_MODEL',
      'TEST_WRONG_KEY',
      'TEST_RIGHT_KEY',
      'SAVE',
      'RELOAD',
      'START_CONVERSATION',
    ].map((type) => ({ type })),

    async start() {
      const { server, browser } = suite;
      // Every path starts from the spec's default model with no key, and sound notifications on.
      const reset = await post(`${server.url}/api/settings`, {
        llm_model: DEFAULT_MODEL,
        llm_base_url: null,
        llm_api_key: '',
        enable_sound_notifications: true,
      });
      expect(reset.status).toBe(200);
      const page = await openPage(browser);
      await page.addInitScript(RECORD_SOUNDS);
      await page.goto(`${server.url}/dashboard`);
      return { page };
    },

    states: {
      async home({ page }) {
        await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
        // A model is saved: the AI settings dialog does not open by itself.
        expect(await page.getByRole('dialog', { name: 'AI provider configuration' }).count()).toBe(0);
      },
      async dialog({ page }) {
        await page.getByRole('dialog', { name: 'AI provider configuration' }).getByLabel('Provider').waitFor();
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
      },
      async settings({ page }) {
        await page.waitForURL((url) => url.pathname === '/settings');
        await page.getByRole('heading', { name: 'Language model' }).waitFor();
        // The default model in basic mode: nothing to save yet.
        await page.getByLabel('Provider').waitFor();
        expect(await page.getByLabel('Provider').inputValue()).toBe('anthropic');
        expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('claude-sonnet-4-20250514');
        expect(await saveButton(page).isDisabled()).toBe(true);
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
      },
      async modelEntered({ page }) {
        expect(await page.getByLabel('Custom model').inputValue()).toBe('openai/fake-model');
        expect(await page.getByRole('status').getByText('The model').count()).toBe(0);
      },
      async refused({ page }) {
        await page
          .getByRole('status')
          .getByText(/The model could not be reached: .*Incorrect API key provided/)
          .waitFor();
      },
      async answered({ page }) {
        await page.getByRole('status').getByText('The model answered: OK').waitFor();
        expect(llm.requests.at(-1)?.headers.authorization).toBe('Bearer sk-right');
        expect(await saveButton(page).isEnabled()).toBe(true);
      },
      async saved({ page }) {
        // Saved: the server has the model and the key, and never answers the key's value.
        await expect.poll(() => saveButton(page).isDisabled()).toBe(true);
        const saved = (await (await fetch(`${suite.server.url}/api/settings`)).json()) as Record<string, unknown>;
        expect(saved).toMatchObject({ llm_model: 'openai/fake-model', llm_base_url: llmUrl, llm_api_key_set: true });
        expect(JSON.stringify(saved)).not.toContain('sk-right');
      },
      async conversation({ page }) {
        await page
          .getByRole('region', { name: 'Chat with the agent' })
          .getByText('Running on the chosen model.')
          .waitFor({ timeout: 30_000 });
        expect(llm.completions.at(-1)?.model).toBe('fake-model');
        expect(llm.requests.at(-1)?.headers.authorization).toBe('Bearer sk-right');
        // Sound notifications are on: the finish sound plays at volume 0.5, once.
        await expect.poll(() => playedSounds(page)).toEqual([0.5]);
      },
    },

    steps: {
      async OPEN_SETTINGS({ page }) {
        await page.getByRole('link', { name: 'Settings' }).click();
      },
      async OPEN_DIALOG({ page }) {
        await page.getByRole('button', { name: 'Configure the AI model' }).click();
      },
      async SEE_ADVANCED({ page }) {
        await page
          .getByRole('dialog', { name: 'AI provider configuration' })
          .getByRole('link', { name: 'See advanced settings' })
          .click();
      },
      async ENTER_MODEL({ page }) {
        // Advanced mode keeps the model as provider/model; the fake model is an OpenAI-compatible one.
        await page.getByRole('checkbox', { name: 'Advanced settings' }).click();
        expect(await page.getByLabel('Custom model').inputValue()).toBe(DEFAULT_MODEL);
        await page.getByLabel('Custom model').fill('openai/fake-model');
        await page.getByLabel('Base URL').fill(llmUrl);
      },
      async TEST_WRONG_KEY({ page }) {
        await keyField(page).fill('sk-wrong');
        llm.enqueue(reply.error(401, 'Incorrect API key provided: sk-wrong.'));
        await page.getByRole('button', { name: 'Test connection' }).click();
      },
      async TEST_RIGHT_KEY({ page }) {
        await keyField(page).fill('sk-right');
        llm.enqueue(reply.text('OK'));
        await page.getByRole('button', { name: 'Test connection' }).click();
      },
      async SAVE({ page }) {
        await saveButton(page).click();
      },
      async RELOAD({ page }) {
        // An unknown model opens the advanced settings on load; the key shows as saved, not its value.
        await page.reload();
        expect(await page.getByLabel('Custom model').inputValue()).toBe('openai/fake-model');
        expect(await keyField(page).getAttribute('placeholder')).toBe(
          'A key is saved (hidden). Type a new one to replace it.',
        );
      },
      async START_CONVERSATION({ page }) {
        llm.enqueue(
          reply.text('Settings check', { when: withoutTools }),
          reply.toolCall(
            'finish',
            { message: 'Running on the chosen model.', task_completed: 'true' },
            { when: withTools },
          ),
        );
        await page.getByRole('link', { name: 'New conversation' }).click();
        const box = page.getByRole('textbox', { name: 'Message to the agent' });
        await box.fill('Which model are you?');
        await box.press('Enter');
        await page.waitForURL(/\/experiment\/conversations\/[^/?]+$/, { timeout: 30_000 });
      },
    },
  });
});
