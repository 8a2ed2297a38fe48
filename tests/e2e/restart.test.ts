import { describe, expect, it } from 'vitest';
import { browserMissing } from '../support/browser.ts';
import { browserSuite, createOssConversation, pagesWithoutErrors } from '../support/browser-suite.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';
import { tabButton } from '../support/workspace-page.ts';

// A server restart under an open workspace: the conversation is stopped, the page says so and
// offers Start, and a message typed then is not lost — it starts the conversation and reaches the agent.
// Code the page downloads later (the layout, a tab) and that failed meanwhile is downloaded again.

describe.skipIf(browserMissing())('a server restart under an open workspace', () => {
  const llm = new FakeLlm('fake-model');
  const suite = browserSuite({ mode: 'oss', llm });
  const openPage = pagesWithoutErrors();

  it('shows the stopped conversation with Start, and a message sent then starts it and reaches the agent', async () => {
    const { server, browser } = suite;
    llm.enqueue(
      reply.text('Restart check', { when: withoutTools }),
      reply.toolCall('finish', { message: 'First answer.', task_completed: 'true' }, { when: withTools }),
    );
    const created = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ initial_user_msg: 'First question' }),
    });
    const { conversation_id: conversationId } = (await created.json()) as { conversation_id: string };
    const page = await openPage(browser);
    await page.goto(`${server.url}/experiment/conversations/${conversationId}`);
    const chat = page.getByRole('region', { name: 'Chat with the agent' });
    await chat.getByText('First answer.').waitFor({ timeout: 30_000 });

    await server.restart();
    // The socket comes back to a stopped conversation: the status bar says so and offers Start.
    await chat.getByRole('status').getByText('The conversation is stopped').waitFor({ timeout: 30_000 });
    await chat.getByRole('button', { name: 'Start', exact: true }).waitFor();

    llm.enqueue(reply.toolCall('finish', { message: 'Second answer.', task_completed: 'true' }, { when: withTools }));
    const box = chat.getByRole('textbox', { name: 'Message to the agent' });
    await box.fill('Second question');
    await box.press('Enter');
    await chat.getByText('Second answer.').waitFor({ timeout: 30_000 });
    expect(await chat.getByText('Second question').count()).toBe(1);
    // Delivered: nothing is kept to come back on a reload.
    expect(await page.evaluate((id) => localStorage.getItem(`atelier.unsent.${id}`), conversationId)).toBeNull();
    await page.close();
  }, 120_000);

  it('after a kill -9 mid-run shows a stopped agent without a reload, keeps the draft, and sends what was typed while down', async () => {
    const { server, browser } = suite;
    const longStep = reply.toolCall('execute_bash', { command: 'sleep 60', security_risk: 'LOW' }, { when: withTools });
    llm.enqueue(reply.text('Crash check', { when: withoutTools }), longStep);
    const created = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ initial_user_msg: 'Wait a minute' }),
    });
    const { conversation_id: conversationId } = (await created.json()) as { conversation_id: string };
    const page = await openPage(browser);
    await page.goto(`${server.url}/experiment/conversations/${conversationId}`);
    const chat = page.getByRole('region', { name: 'Chat with the agent' });
    const stop = chat.getByRole('button', { name: 'Stop' });
    await stop.waitFor({ timeout: 30_000 });

    await server.crash();
    const box = chat.getByRole('textbox', { name: 'Message to the agent' });
    await box.fill('Half a thought');
    await server.restart();
    // Consistent without a reload: a stopped conversation, and no agent at work beside it.
    await chat.getByRole('status').getByText('The conversation is stopped').waitFor({ timeout: 30_000 });
    await chat.getByText('Agent is typing...').waitFor({ state: 'detached' });
    expect(await stop.count()).toBe(0);
    // The draft outlives a reload.
    // (Opening the page may start the stopped conversation again: the wait is for the box, not a status.)
    await page.reload();
    await box.waitFor({ timeout: 30_000 });
    await expect.poll(() => box.inputValue()).toBe('Half a thought');

    // Sent, it reaches the agent; the agent runs again and the server dies again.
    llm.enqueue(longStep);
    const send = chat.getByRole('button', { name: 'Send', exact: true });
    await expect.poll(() => send.isEnabled(), { timeout: 30_000 }).toBe(true);
    await box.press('Enter');
    await stop.waitFor({ timeout: 30_000 });
    await server.crash();
    // Typed and sent while the server is down: it waits for the connection, shown as sent.
    await box.fill('Sent while the server was down');
    await box.press('Enter');
    await chat.getByText('Sent while the server was down').waitFor();
    expect(await box.inputValue()).toBe('');
    llm.enqueue(reply.toolCall('finish', { message: 'Back again.', task_completed: 'true' }, { when: withTools }));
    await server.restart();
    await chat.getByText('Back again.').waitFor({ timeout: 30_000 });
    expect(await chat.getByText('Sent while the server was down').count()).toBe(1);
    expect(await page.evaluate((id) => localStorage.getItem(`atelier.draft.chat.${id}`), conversationId)).toBeNull();
    await page.close();
  }, 150_000);

  it('downloads the layout again when its script and stylesheet failed while the server was away', async () => {
    const { server, browser } = suite;
    const conversationId = await createOssConversation(server);
    const page = await openPage(browser);
    const refused = new Set<string>();
    await page.route(/\/assets\/LayoutView-[^/]+\.(js|css)$/, (route) => {
      const url = route.request().url();
      if (refused.has(url)) return route.continue();
      refused.add(url);
      return route.fulfill({ status: 503, body: 'restarting' });
    });
    await page.goto(`${server.url}/experiment/conversations/${conversationId}`);
    await tabButton(page, 'Chat').waitFor({ timeout: 30_000 });
    expect([...refused].map((url) => url.split('.').pop()).sort()).toEqual(['css', 'js']);
    // The layout's stylesheet applies once fetched again: flexlayout's tab set is positioned.
    await page.waitForFunction(
      () => {
        const tabSet = document.querySelector('.flexlayout__tabset');
        return tabSet !== null && getComputedStyle(tabSet).position === 'relative';
      },
      undefined,
      { timeout: 20_000 },
    );
    await page.close();
  }, 60_000);
});
