import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { waitFor } from '../support/conversations.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';
import { browserSuite, pagesWithoutErrors } from '../support/browser-suite.ts';
import type { RunningServer } from '../support/server.ts';
import type { Event } from '../../openapi/types.ts';
import { chooseMenuItem, tabButton, terminalLines, typeInTerminal } from '../support/workspace-page.ts';

// The workspace against the real server in self-hosted mode and a scripted model: the home
// prompt opens a conversation in the pm layout, the agent runs a command, writes a file and
// edits another, the socket is cut mid-stream and heals, the terminal and the Changes tab show
// the agent's work (and a command typed into the terminal), layouts are switched and saved, a
// file is dropped on the chat, and the conversation is stopped and deleted.

/** Records, in the page, every event frame each socket received (a socket per connection). */
const RECORD_SOCKETS = () => {
  const frames: number[][] = [];
  const sockets: WebSocket[] = [];
  const Native = window.WebSocket;
  class Recorded extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      const ids: number[] = [];
      frames.push(ids);
      sockets.push(this);
      this.addEventListener('message', (message: MessageEvent) => {
        const frame = JSON.parse(String(message.data)) as { type?: string; data?: { id: number } };
        if (frame.type === 'oh_event' && frame.data) ids.push(frame.data.id);
      });
    }
  }
  Object.assign(window, { WebSocket: Recorded, socketFrames: frames, openSockets: sockets });
};

type RecordingWindow = Window & { socketFrames: number[][]; openSockets: WebSocket[] };

async function events(server: RunningServer, conversationId: string): Promise<Event[]> {
  const response = await fetch(`${server.url}/api/conversations/${conversationId}/events?limit=100`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: Event[] }).events.reverse();
}

/** The changed lines of one side of hello.txt's open diff: as committed, or in the workspace. */
const changedLines = (page: Page, side: 'as last committed' | 'in the workspace') =>
  page
    .getByRole('textbox', { name: `hello.txt ${side}` })
    .locator('.cm-changedLine')
    .allInnerTexts();

async function workspaceApi<T>(server: RunningServer, conversationId: string, call: string): Promise<T> {
  const response = await fetch(`${server.url}/api/conversations/${conversationId}/${call}`);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

describe.skipIf(browserMissing())('the workspace in the browser', () => {
  const llm = new FakeLlm('fake-model');
  const suite = browserSuite({ mode: 'oss', llm });
  const openPage = pagesWithoutErrors();

  it('opens a prompt in the pm layout, streams the agent without gap or duplicate, shows its work in the tabs, saves a layout, takes a dropped file, then stops and deletes', async () => {
    const { server, browser } = suite;
    // The command commits hello.txt, so the edit after it shows as a change against git.
    const command = 'echo hello > hello.txt && git add -A && git commit -qm start && cat hello.txt';
    llm.enqueue(
      reply.text('Notes file', { when: withoutTools }),
      reply.toolCall('execute_bash', { command, security_risk: 'LOW' }, { when: withTools }),
      // Slow steps: the socket is cut while they are written.
      reply.toolCall(
        'str_replace_editor',
        { command: 'create', path: 'notes.md', file_text: '# Notes\n', security_risk: 'LOW' },
        { when: withTools, delayMs: 2_500 },
      ),
      reply.toolCall(
        'str_replace_editor',
        { command: 'str_replace', path: 'hello.txt', old_str: 'hello', new_str: 'bonjour', security_risk: 'LOW' },
        { when: withTools },
      ),
      reply.toolCall(
        'finish',
        { message: 'notes.md is written.', task_completed: 'true' },
        { when: withTools, delayMs: 1_500 },
      ),
    );
    const page = await openPage(browser);
    await page.addInitScript(RECORD_SOCKETS);

    await page.goto(`${server.url}/dashboard`);
    const box = page.getByRole('textbox', { name: 'Message to the agent' });
    // A quick start fills the box with a prompt to adjust; this test writes its own.
    await page.getByRole('button', { name: 'Create a project from scratch' }).click();
    expect(await box.inputValue()).toContain('from scratch');
    await box.fill('Write a notes file');
    await box.press('Enter');
    await page.waitForURL(/\/experiment\/conversations\/[^/?]+$/, { timeout: 30_000 });
    const conversationId = new URL(page.url()).pathname.split('/').at(-1) ?? '';

    // The pm layout: chat on the left, the web app and the browser on the right.
    for (const name of ['Chat', 'App', 'Browser']) await tabButton(page, name).waitFor();
    expect(await tabButton(page, 'VS Code').count()).toBe(0);
    // flexlayout's measuring element is neither read out nor part of the page's text.
    expect(await page.evaluate(() => document.body.innerText)).not.toContain('FindBorderBarSize');

    // The command ran: cut the socket while the next steps are being written.
    await waitFor(
      () => events(server, conversationId),
      (list) => list.some((event) => event.observation === 'run'),
      30_000,
      'the command output',
    );
    await page.evaluate(() => (window as unknown as RecordingWindow).openSockets.at(-1)?.close());
    const all = await waitFor(
      () => events(server, conversationId),
      (list) => list.some((event) => event.action === 'finish'),
      30_000,
      'the finish step',
    );
    const frames = await waitFor(
      () => page.evaluate(() => (window as unknown as RecordingWindow).socketFrames),
      (received) => received.length >= 2 && received.flat().includes(all.at(-1)?.id ?? -1),
      20_000,
      'the reconnected socket to catch up',
    );
    const received = frames.flat();
    // Each event once, in order, across both sockets, and every event the server has (no gap).
    expect(received).toEqual([...new Set(received)].sort((a, b) => a - b));
    expect(received).toEqual(
      expect.arrayContaining(all.map((event) => event.id).filter((id) => id > (frames[0]?.[0] ?? 0) - 1)),
    );
    expect(frames[1]?.[0]).toBe((frames[0]?.at(-1) ?? -1) + 1);

    // The chat shows every step, each succeeded, and the prompt was sent once and dropped from the url.
    const chat = page.getByRole('log');
    const chatRows = chat.locator('[data-index]');
    for (const step of [`Ran ${command}`, 'Edited notes.md', 'Edited hello.txt']) {
      await chatRows.filter({ hasText: step }).getByRole('img', { name: 'Success' }).waitFor();
    }
    await chat.getByText('notes.md is written.').waitFor();
    expect(all.filter((event) => event.source === 'user' && event.action === 'message')).toHaveLength(1);
    expect(new URL(page.url()).searchParams.get('temp_message')).toBeNull();
    // The healed chat shows what a fresh load of the server's history shows: nothing missing, nothing twice.
    const healed = await chatRows.allInnerTexts();
    expect(healed.length).toBeGreaterThan(2);
    await page.reload();
    await page.getByText('notes.md is written.').first().waitFor();
    // Messages show as plain text until the lazily loaded markdown renderer arrives: wait for the settled page.
    await waitFor(
      () => chatRows.allInnerTexts(),
      (texts) => JSON.stringify(texts) === JSON.stringify(healed),
      10_000,
      'the reloaded chat to show what the healed one showed',
    );
    // A step opens onto its details: the command's output, the edit's diff.
    await chatRows
      .filter({ hasText: `Ran ${command}` })
      .getByText(`Ran ${command}`)
      .click();
    await chatRows
      .filter({ hasText: `Ran ${command}` })
      .locator('pre')
      .filter({ hasText: /^\s*hello\s*$/ })
      .waitFor();
    await chatRows.filter({ hasText: 'Edited hello.txt' }).getByText('Edited hello.txt').click();
    await chatRows.filter({ hasText: 'Edited hello.txt' }).getByText('+bonjour').waitFor();

    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The terminal shows the agent's command and its output; a typed command runs in the
    // conversation's shell (where hello.txt is) and its output follows.
    await chooseMenuItem(page, 'Window', 'Terminal');
    // It opens on a terminal of the user's own; the Agent view beside it shows the agent's commands.
    await tabButton(page, 'Terminal 1').waitFor();
    await tabButton(page, 'Agent').click();
    await waitFor(
      () => terminalLines(page),
      (lines) => lines.includes('hello') && lines.some((line) => line.startsWith('$ echo hello > hello.txt')),
      10_000,
      'the agent command in the terminal',
    );
    // The Changes tab lists what the agent changed since the commit; hello.txt opens onto its diff.
    await chooseMenuItem(page, 'Window', 'Changes');
    const changedFile = (status: 'Modified' | 'Untracked', path: string) =>
      page
        .getByRole('list', { name: 'Changed files' })
        .locator('summary')
        .filter({ has: page.getByTitle(status, { exact: true }) })
        .filter({ hasText: path });
    await changedFile('Untracked', 'notes.md').waitFor();
    await changedFile('Modified', 'hello.txt').click();
    await waitFor(
      () => changedLines(page, 'in the workspace'),
      (lines) => lines.join('\n') === 'bonjour',
      10_000,
      'the diff of hello.txt',
    );
    expect(await changedLines(page, 'as last committed')).toEqual(['hello']);

    // Terminal and Changes share the tile on the right (a tab opened later joins it): back to the terminal.
    await tabButton(page, 'Terminal').click();
    await tabButton(page, 'Terminal 1').click();
    await typeInTerminal(page, 'echo typed-$((6*7)) > typed.txt && cat typed.txt hello.txt');
    await waitFor(
      () => terminalLines(page),
      (lines) => lines.includes('typed-42') && lines.at(lines.indexOf('typed-42') + 1) === 'bonjour',
      15_000,
      'the typed command output',
    );
    // The command changed files: the Changes list is refreshed.
    await tabButton(page, 'Changes').click();
    await changedFile('Untracked', 'typed.txt').waitFor();
    // Typed commands are the terminal's: the chat does not show them.
    expect(await chat.getByText('typed-42').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The title the agent gave shows in the menu bar; clicking it renames the conversation.
    await page.getByRole('button', { name: 'Rename conversation Notes file' }).click();
    const titleField = page.getByRole('textbox', { name: 'Conversation title' });
    await titleField.fill('  My notes ');
    await titleField.press('Enter');
    await page.getByRole('button', { name: 'Rename conversation My notes' }).waitFor();
    await waitFor(
      async () =>
        ((await (await fetch(`${server.url}/api/conversations/${conversationId}`)).json()) as { title: string }).title,
      (title) => title === 'My notes',
      10_000,
      'the rename',
    );
    // Its toast does not cover the menu bar.
    const toast = page.getByText('Conversation title updated');
    await toast.waitFor();
    const toastBox = await toast.boundingBox();
    const menuBox = await page.getByRole('navigation', { name: 'Workspace menu' }).boundingBox();
    expect(toastBox && menuBox && toastBox.y < menuBox.y + menuBox.height).toBe(false);

    // Developer layout, saved as 'mine' (trimmed), still listed after a reload. The web app's
    // tile moves, but its framed page is drawn outside the moving tiles: the same element stays.
    await page.evaluate(() =>
      Object.assign(document.querySelector('[data-framed-tab="app"]') ?? {}, { keptAcrossLayouts: true }),
    );
    await chooseMenuItem(page, 'Layout', 'Developer');
    await tabButton(page, 'VS Code').waitFor();
    expect(
      await page.evaluate(
        () =>
          (document.querySelector('[data-framed-tab="app"]') as { keptAcrossLayouts?: boolean } | null)
            ?.keptAcrossLayouts,
      ),
    ).toBe(true);
    const appTile = await page.locator('[data-framed-tab="app"]').boundingBox();
    expect(appTile?.width).toBeGreaterThan(0);
    await chooseMenuItem(page, 'Layout', 'Save current layout');
    const dialog = page.getByRole('dialog', { name: 'Save Layout' });
    const save = dialog.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel('Layout Name').fill('  mine  ');
    await save.click();
    await dialog.waitFor({ state: 'detached' });
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Workspace menu' })
      .getByRole('button', { name: 'Layout', exact: true })
      .click();
    await page.getByRole('menuitem', { name: 'Saved: mine' }).waitFor();
    await page.keyboard.press('Escape');

    // A file dropped on the chat is uploaded into the workspace and announced to the agent, whose
    // edit then refreshes the open diff in the Changes tab.
    llm.enqueue(
      reply.toolCall(
        'str_replace_editor',
        {
          command: 'str_replace',
          path: 'hello.txt',
          old_str: 'bonjour',
          new_str: 'bonjour, dropped.txt',
          security_risk: 'LOW',
        },
        { when: withTools },
      ),
      reply.toolCall('finish', { message: 'dropped.txt is noted.', task_completed: 'true' }, { when: withTools }),
    );
    await chooseMenuItem(page, 'Window', 'Changes');
    await changedFile('Modified', 'hello.txt').click();
    await waitFor(
      () => changedLines(page, 'in the workspace'),
      (lines) => lines.join('\n') === 'bonjour',
      10_000,
      'the diff of hello.txt',
    );
    const files = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['dropped content\n'], 'dropped.txt', { type: 'text/plain' }));
      return transfer;
    });
    const chatPanel = page.getByRole('region', { name: 'Chat with the agent' });
    // The reader has scrolled up the chat (a short window, so it scrolls): the upload's message
    // still brings it to its end.
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: viewport?.width ?? 1280, height: 480 });
    const log = page.getByRole('log', { name: 'Messages' });
    const distanceFromEnd = () =>
      log.evaluate((element) => element.scrollHeight - element.clientHeight - element.scrollTop);
    await log.hover();
    await waitFor(
      async () => {
        await page.mouse.wheel(0, -1_000);
        return distanceFromEnd();
      },
      (distance) => distance > 20,
      5_000,
      'the chat to be scrolled up',
    );
    await chatPanel.dispatchEvent('dragenter', { dataTransfer: files });
    await chatPanel.dispatchEvent('dragover', { dataTransfer: files });
    const overlay = page.getByText('Drop files here to upload');
    await overlay.waitFor();
    await chatPanel.dispatchEvent('drop', { dataTransfer: files });
    await overlay.waitFor({ state: 'detached' });
    await chatRows.filter({ hasText: 'I uploaded these files to the workspace: dropped.txt.' }).waitFor();
    await waitFor(distanceFromEnd, (distance) => distance <= 20, 5_000, 'the chat to scroll to the upload');
    if (viewport) await page.setViewportSize(viewport);
    expect(await workspaceApi<string[]>(server, conversationId, 'list-files')).toContain('dropped.txt');
    expect(await workspaceApi<{ code: string }>(server, conversationId, 'select-file?file=dropped.txt')).toEqual({
      code: 'dropped content\n',
    });
    await chat.getByText('dropped.txt is noted.').waitFor();
    expect(await chatRows.filter({ hasText: 'I uploaded these files' }).count()).toBe(1);
    await waitFor(
      () => changedLines(page, 'in the workspace'),
      (lines) => lines.join('\n') === 'bonjour, dropped.txt',
      10_000,
      'the refreshed diff of hello.txt',
    );
    await changedFile('Untracked', 'dropped.txt').waitFor();

    // Unsaved edits in the editor: leaving the conversation asks first; Stay keeps them, and once saved, leaving asks nothing.
    await chooseMenuItem(page, 'Window', 'VS Code');
    await page
      .getByRole('navigation', { name: 'Files' })
      .getByRole('button', { name: 'hello.txt', exact: true })
      .click();
    const editor = page.getByLabel('Contents of hello.txt');
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' (edited)');
    const openFiles = page.getByRole('list', { name: 'Open files' });
    await openFiles.getByRole('button', { name: /^hello\.txt.*unsaved changes$/ }).waitFor();
    await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'New conversation' }).click();
    const exit = page.getByRole('dialog', { name: 'Leave this conversation?' });
    await exit.getByText('Unsaved changes in hello.txt are lost if you leave.').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await exit.getByRole('button', { name: 'Stay' }).click();
    await exit.waitFor({ state: 'detached' });
    expect(page.url()).toContain(conversationId);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await openFiles.getByRole('button', { name: 'hello.txt', exact: true }).waitFor();
    expect(await workspaceApi<{ code: string }>(server, conversationId, 'select-file?file=hello.txt')).toEqual({
      code: expect.stringContaining(' (edited)'),
    });

    // Stop: back at /dashboard; then delete it from the conversation panel.
    await chooseMenuItem(page, 'Runtime', 'Stop');
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('button', { name: 'Show conversations' }).click();
    const panel = page.getByRole('region', { name: 'Conversations' });
    // Inline rename on the card: Escape cancels, leaving the field (blur) saves.
    await panel.getByRole('button', { name: 'Actions for My notes' }).click();
    await page.getByRole('menuitem', { name: 'Edit title' }).click();
    const cardTitle = panel.getByRole('textbox', { name: 'Conversation title' });
    await cardTitle.waitFor();
    // The field keeps the focus once the menu has closed (the menu used to take it back to its button).
    await page.waitForTimeout(300);
    expect(await cardTitle.evaluate((field) => field === document.activeElement)).toBe(true);
    await cardTitle.fill('Not this');
    await cardTitle.press('Escape');
    await panel.getByRole('link', { name: 'My notes' }).waitFor();
    await panel.getByRole('button', { name: 'Actions for My notes' }).click();
    await page.getByRole('menuitem', { name: 'Edit title' }).click();
    await cardTitle.fill('Notes v2');
    await cardTitle.blur();
    await panel.getByRole('link', { name: 'Notes v2' }).waitFor();
    await panel.getByRole('button', { name: 'Actions for Notes v2' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Conversation' });
    await confirm.getByText('This action cannot be undone').waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await panel.getByText('No conversations yet.').waitFor();
    // The card went at once (optimistic); the server confirms.
    await waitFor(
      async () => (await fetch(`${server.url}/api/conversations/${conversationId}`)).status,
      (status) => status === 404,
      10_000,
      'the deletion',
    );
    await page.close();
  }, 180_000);
});
