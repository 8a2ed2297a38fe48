import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { browserSuite, pagesWithoutErrors } from '../support/browser-suite.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';

// A self-hosted installation without LLM_* variables: the AI settings dialog on a fresh
// installation and in the chat. (Settings → Test connection → a conversation is a journey model:
// tests/e2e/journeys/model-settings.test.ts.)

describe.skipIf(browserMissing())('choosing the model in the settings of a self-hosted installation', () => {
  const suite = browserSuite({ mode: 'oss' });
  const openPage = pagesWithoutErrors();
  const llm = new FakeLlm('fake-model');
  let llmUrl = '';
  beforeAll(async () => {
    llmUrl = await llm.start();
  });
  afterAll(() => llm.stop());

  it('opens the AI settings modal on the home page while no model is set, and not once one is saved', async () => {
    const { server, browser } = suite;
    const page = await openPage(browser);
    await page.goto(`${server.url}/dashboard`);
    const modal = page.getByRole('dialog', { name: 'AI provider configuration' });
    await modal.getByLabel('Provider').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // Closed, it stays closed on this page and opens again from the home page's link.
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Configure the AI model' }).click();
    // Providers by their names, and any OpenAI-compatible server without the advanced settings.
    const provider = modal.getByLabel('Provider');
    expect(await provider.locator('option').allTextContents()).toEqual([
      'Anthropic',
      'OpenAI',
      'OpenAI-compatible server (Ollama, vLLM, LiteLLM…)',
    ]);
    await provider.selectOption({ label: 'OpenAI-compatible server (Ollama, vLLM, LiteLLM…)' });
    await modal.getByLabel('Model name on the server').fill('fake-model');
    await modal.getByRole('button', { name: 'Save', exact: true }).click();
    await modal.getByText('Base URL is required').waitFor();
    await modal.getByLabel('Base URL').fill(llmUrl);
    await modal.getByLabel('API key', { exact: true }).fill('sk-from-modal');
    await modal.getByRole('button', { name: 'Save', exact: true }).click();
    await modal.waitFor({ state: 'detached' });
    expect(((await (await fetch(`${server.url}/api/settings`)).json()) as { llm_model: string }).llm_model).toBe(
      'openai/fake-model',
    );
    await page.reload();
    await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await modal.count()).toBe(0);

    await page.getByRole('button', { name: 'Configure the AI model' }).click();
    await modal.getByRole('link', { name: 'See advanced settings' }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.getByRole('heading', { name: 'Language model' }).waitFor();
    await page.close();
  });

  it('offers the AI settings from the chat’s “no model” message; saving ends the session and the next message runs on the model', async () => {
    const { server, browser } = suite;
    // A model Atelier cannot call (no base URL for it): the agent says no model is configured.
    await fetch(`${server.url}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ llm_model: 'ollama/llama3', llm_base_url: null, llm_api_key: '' }),
    });
    const created = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ initial_user_msg: 'Hello?' }),
    });
    const { conversation_id: conversationId } = (await created.json()) as { conversation_id: string };
    const page = await openPage(browser);
    await page.goto(`${server.url}/experiment/conversations/${conversationId}`);
    const chat = page.getByRole('region', { name: 'Chat with the agent' });
    await chat.getByText('No language model is configured.', { exact: true }).first().waitFor({ timeout: 30_000 });
    await chat.getByRole('button', { name: 'Configure the AI model' }).first().click();
    const modal = page.getByRole('dialog', { name: 'AI provider configuration' });
    // An unknown model: the advanced settings are open already.
    await modal.getByRole('checkbox', { name: 'Advanced settings' }).check();
    await modal.getByLabel('Custom model').fill('openai/fake-model');
    await modal.getByLabel('Base URL').fill(llmUrl);
    await modal.getByLabel('API key', { exact: true }).fill('sk-from-chat');
    await modal.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'End the session?' })
      .getByRole('button', { name: 'End session and save' })
      .click();
    await modal.waitFor({ state: 'detached' });

    llm.enqueue(
      reply.text('Model check', { when: withoutTools }),
      reply.toolCall('finish', { message: 'Now I have a model.', task_completed: 'true' }, { when: withTools }),
    );
    const box = chat.getByRole('textbox', { name: 'Message to the agent' });
    await box.fill('And now?');
    await box.press('Enter');
    await chat.getByText('Now I have a model.').waitFor({ timeout: 30_000 });
    expect(llm.requests.at(-1)?.headers.authorization).toBe('Bearer sk-from-chat');

    // Stopping it from the conversation panel asks first.
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('button', { name: 'Show conversations' }).click();
    const panel = page.getByRole('region', { name: 'Conversations' });
    await panel
      .getByRole('button', { name: /^Actions for / })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Stop' }).click();
    const confirmStop = page.getByRole('dialog', { name: 'Stop Conversation' });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await confirmStop.getByRole('button', { name: 'Stop', exact: true }).click();
    await confirmStop.waitFor({ state: 'detached' });
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${server.url}/api/conversations/${conversationId}`)).json()) as { status: string })
            .status,
        { timeout: 30_000 },
      )
      .toBe('STOPPED');
    await page.close();
  }, 120_000);
});
