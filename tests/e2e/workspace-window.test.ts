import { afterEach, describe, expect, it } from 'vitest';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { waitFor } from '../support/conversations.ts';
import { FakeLlm } from '../support/fake-llm/index.ts';
import { browserSuite, createOssConversation, watchPageErrors } from '../support/browser-suite.ts';
import {
  chooseMenuItem,
  menuBar,
  openMenu,
  popOutActiveTab,
  tabButton,
  typeInTerminal,
} from '../support/workspace-page.ts';

// The workspace's menus against the real server in self-hosted mode: a tab popped out into a
// browser window of its own stays live there and returns to the layout when the window closes
// (a framed tab included; a blocked window says so); Window → Served opens the web app tab;
// File and the App submenu show what needs a deployment first; the Features dialog filters its list.

let pageErrors: string[] = [];

afterEach(() => {
  const errors = pageErrors;
  pageErrors = [];
  expect(errors).toEqual([]);
});

describe.skipIf(browserMissing())('the workspace menus and popout windows in the browser', () => {
  const llm = new FakeLlm('fake-model');
  const suite = browserSuite({ mode: 'oss', llm });

  it('pops the terminal and the web app out into windows of their own and docks them back when the windows close', async () => {
    const { server, browser } = suite;
    const conversationId = await createOssConversation(server);
    await waitFor(
      async () =>
        ((await (await fetch(`${server.url}/api/conversations/${conversationId}`)).json()) as { status: string })
          .status,
      (status) => status === 'RUNNING',
      30_000,
      'the conversation to run',
    );

    const page = await browser.newPage();
    watchPageErrors(page, pageErrors);
    await page.goto(`${server.url}/experiment/conversations/${conversationId}`);
    for (const name of ['Chat', 'App', 'Browser']) await tabButton(page, name).waitFor();

    // The web app's framed page is drawn outside the tiles: the tiles reflowing around the
    // popped-out terminal must not reload it.
    await page.evaluate(() =>
      Object.assign(document.querySelector('[data-framed-tab="app"]') ?? {}, { keptAcrossMoves: true }),
    );

    await chooseMenuItem(page, 'Window', 'Terminal');
    await tabButton(page, 'Terminal').waitFor();
    const popup = await popOutActiveTab(page, 'Terminal', (message) => pageErrors.push(message));
    await popup.getByRole('region', { name: 'Terminal' }).waitFor();
    await tabButton(page, 'Terminal').waitFor({ state: 'detached' });
    // Still the live terminal: a command typed in the window runs in the conversation's shell.
    await typeInTerminal(popup, 'echo popped-$((6*7))');
    await popup.getByText('popped-42').first().waitFor({ timeout: 20_000 });

    // Opening it again from the Window menu brings its window forward rather than adding a second one.
    await chooseMenuItem(page, 'Window', 'Terminal');

    // The user closes the window: the tab comes back into the layout, with what it showed.
    await popup.close({ runBeforeUnload: true });
    await tabButton(page, 'Terminal').waitFor();
    expect(await tabButton(page, 'Terminal').count()).toBe(1);
    await page.getByRole('region', { name: 'Terminal' }).getByText('popped-42').first().waitFor();
    expect(
      await page.evaluate(
        () =>
          (document.querySelector('[data-framed-tab="app"]') as { keptAcrossMoves?: boolean } | null)?.keptAcrossMoves,
      ),
    ).toBe(true);

    // A framed tab pops out too: the window draws its page (loaded once more there), and the
    // page's framed layer draws it again once the window closes.
    await tabButton(page, 'App').click();
    const appWindow = await popOutActiveTab(page, 'App', (message) => pageErrors.push(message));
    const noApp = 'No web app is being served yet.';
    await appWindow.getByText(noApp, { exact: false }).waitFor();
    // Why an app on another port does not show: the tab names the ports it shows.
    await appWindow.getByText('(APP_PORT_1 and APP_PORT_2 in its shell) show here', { exact: false }).waitFor();
    await page.locator('[data-framed-tab="app"]').waitFor({ state: 'detached' });
    await appWindow.close({ runBeforeUnload: true });
    await tabButton(page, 'App').waitFor();
    await page.locator('[data-framed-tab="app"]').getByText(noApp, { exact: false }).waitFor();

    // A blocked window: the tab stays in the layout and the user is told why.
    await tabButton(page, 'Terminal').click();
    await page.evaluate(() => Object.assign(window, { open: () => null }));
    await chooseMenuItem(page, 'Layout', 'Open in a new window');
    await page.getByText('The browser blocked the new window', { exact: false }).waitFor();
    await tabButton(page, 'Terminal').waitFor();
    await page.close();
  }, 90_000);

  it('draws the chat once: popped out and docked back, it keeps its message box and the draft typed in either window', async () => {
    const { server, browser } = suite;
    const conversationId = await createOssConversation(server);
    const page = await browser.newPage();
    watchPageErrors(page, pageErrors);
    await page.goto(`${server.url}/experiment/conversations/${conversationId}`);
    await tabButton(page, 'App').waitFor();
    const box = page.getByRole('textbox', { name: 'Message to the agent' });
    await box.fill('a draft');
    // The same element throughout: the chat is rendered once and its tile adopts it, from the
    // first frame (drawn before the layout's code loads) to a window of its own and back.
    await page.evaluate(() => Object.assign(document.querySelector('textarea') ?? {}, { keptAcrossMoves: true }));
    await tabButton(page, 'Chat').click();
    const popup = await popOutActiveTab(page, 'Chat', (message) => pageErrors.push(message));
    const popped = popup.getByRole('textbox', { name: 'Message to the agent' });
    expect(await popped.inputValue()).toBe('a draft');
    await popped.pressSequentially(', longer');
    expect(
      await popup.evaluate(
        () => (document.querySelector('textarea') as { keptAcrossMoves?: boolean } | null)?.keptAcrossMoves,
      ),
    ).toBe(true);
    await popup.close({ runBeforeUnload: true });
    await tabButton(page, 'Chat').waitFor();
    expect(await box.inputValue()).toBe('a draft, longer');
    expect(
      await page.evaluate(
        () => (document.querySelector('textarea') as { keptAcrossMoves?: boolean } | null)?.keptAcrossMoves,
      ),
    ).toBe(true);
    await page.close();
  }, 60_000);

  it('opens the web app from Window → Served, explains what needs a deployment first, and filters the Features dialog', async () => {
    const { server, browser } = suite;
    const conversationId = await createOssConversation(server);
    const page = await browser.newPage();
    watchPageErrors(page, pageErrors);
    await page.goto(`${server.url}/experiment/conversations/${conversationId}`);
    await tabButton(page, 'Chat').waitFor();

    // With the web app tab closed, Served opens it again.
    await tabButton(page, 'App').waitFor();
    await tabButton(page, 'App').locator('[data-layout-path$="/button/close"]').click();
    await tabButton(page, 'App').waitFor({ state: 'detached' });
    await chooseMenuItem(page, 'Window', 'App');
    await tabButton(page, 'App').waitFor();

    // Opening tab after tab joins the tile on the right: the chat keeps room for its message box and Send.
    for (const tab of ['VS Code', 'Terminal', 'Jupyter', 'Changes']) {
      await chooseMenuItem(page, 'Window', tab);
      await tabButton(page, tab).waitFor();
    }
    const chatPanel = page.getByRole('region', { name: 'Chat with the agent' });
    expect((await chatPanel.boundingBox())?.width).toBeGreaterThanOrEqual(320);
    expect(await page.locator('.flexlayout__tabset').count()).toBe(2);
    await chatPanel.getByRole('button', { name: 'Send', exact: true }).waitFor();

    // Tiling from the keyboard: the tab in the right tile (Changes) moves to the chat's tile and back;
    // focus moves between the tiles; ? lists the shortcuts.
    const tileOf = async (name: string) =>
      (await tabButton(page, name).getAttribute('data-layout-path'))?.replace(/\/tb\d+$/, '');
    await tabButton(page, 'Changes').click();
    const rightTile = await tileOf('Changes');
    const chatTile = await tileOf('Chat');
    expect(rightTile).not.toBe(chatTile);
    await page.keyboard.press('Control+Alt+Shift+ArrowLeft');
    await waitFor(
      () => tileOf('Changes'),
      (tile) => tile === chatTile,
      5_000,
      'Changes to join the chat',
    );
    await page.keyboard.press('Control+Alt+Shift+ArrowRight');
    await waitFor(
      () => tileOf('Changes'),
      (tile) => tile === rightTile,
      5_000,
      'Changes to go back',
    );
    await page.keyboard.press('Alt+Shift+ArrowLeft');
    await waitFor(
      () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''),
      (label) => label === 'Chat',
      5_000,
      'the focus on the chat tile',
    );
    await page.keyboard.press('Shift+Slash');
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await shortcuts.getByRole('cell', { name: 'Move the tab to the next tile' }).waitFor();
    await shortcuts.getByText('Ctrl+Alt+Shift+→').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await shortcuts.waitFor({ state: 'detached' });

    // File: no git provider here, so no push; Deployments lists none yet.
    await openMenu(page, 'File');
    const push = page.getByRole('menuitem', { name: 'Push to repository host' });
    expect(await push.getAttribute('aria-disabled')).toBe('true');
    await page.getByText('Connect a git provider and select a repository first.').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('menuitem', { name: 'Deployments' }).click();
    const deployments = page.getByRole('dialog', { name: 'Infrastructure Deployments' });
    await deployments.getByText('No deployments yet').waitFor();
    await deployments.getByText('Deploy your first application using the DevOps Agent').waitFor();
    await deployments.getByText('Total cost: $0.00').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await deployments.waitFor({ state: 'detached' });

    // Window → App, by keyboard: with nothing deployed, staging and production are disabled with the reason; development opens the web app.
    await openMenu(page, 'Window');
    const app = page.getByRole('menuitem', { name: 'App environments', exact: true });
    await app.focus();
    await page.keyboard.press('ArrowRight');
    const staging = page.getByRole('menuitem', { name: 'Staging' });
    await staging.waitFor();
    expect(await staging.getAttribute('aria-disabled')).toBe('true');
    expect(await page.getByRole('menuitem', { name: 'Production' }).getAttribute('aria-disabled')).toBe('true');
    await page.getByText('Ask the DevOps agent to deploy it.').first().waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('menuitem', { name: 'Development' }).click();
    await tabButton(page, 'App').waitFor();

    // Feature: the dialog's search filters the samples by name; New Feature hands over to the chat's message box.
    await menuBar(page).getByRole('button', { name: 'Feature', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Features' });
    const rows = dialog.getByRole('listitem');
    // The dialog's code loads when it first opens.
    await rows.first().waitFor();
    expect(await rows.count()).toBe(6);
    // The spec's hardcoded samples say they are examples, not this project's features.
    await dialog
      .getByText("Examples of how features are tracked here (samples, not this project's)", { exact: false })
      .waitFor();
    for (const status of ['Warning', 'Completed', 'Error', 'Pending'])
      await dialog.getByText(status, { exact: true }).first().waitFor();
    await dialog.getByRole('searchbox', { name: 'Search features' }).fill('DARK');
    await waitFor(
      () => rows.allInnerTexts(),
      (texts) => texts.length === 1,
      5_000,
      'the filtered list',
    );
    expect((await rows.allInnerTexts())[0]).toContain('Dark mode');
    await dialog.getByRole('searchbox', { name: 'Search features' }).fill('nothing like this');
    await dialog.getByText('No feature matches your search.').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'New Feature' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitFor(
      () => page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      (label) => label === 'Message to the agent',
      5_000,
      'the message box to take focus',
    );
    await page.close();
  }, 90_000);
});
