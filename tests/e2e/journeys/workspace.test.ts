import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { setup } from 'xstate';
import { browserMissing, seriousAccessibilityViolations } from '../../support/browser.ts';
import { browserSuite, createOssConversation, pagesWithoutErrors } from '../../support/browser-suite.ts';
import { waitFor } from '../../support/conversations.ts';
import { FakeLlm } from '../../support/fake-llm/index.ts';
import { journeyTests } from '../../support/journey.ts';
import { chooseMenuItem, openMenu, popOutActiveTab, tabButton } from '../../support/workspace-page.ts';

// Journey 2: a conversation → every tab → the layout presets → save, reload, restore → popout,
// in a self-hosted installation. The workspace opens in the PM layout; the Window menu opens each
// tab; the Layout menu switches presets, maximises a tile, saves the layout under a name (or
// cancels), which survives a reload and comes back after another preset; the terminal pops out
// into a window of its own and docks back when the window closes.

const journey = setup({}).createMachine({
  id: 'workspaceJourney',
  initial: 'pm',
  states: {
    pm: {
      on: {
        OPEN_VSCODE: 'vscode',
        OPEN_TERMINAL: 'terminal',
        OPEN_JUPYTER: 'jupyter',
        OPEN_CHANGES: 'changes',
        OPEN_DEVOPS: 'devops',
        MAXIMISE: 'maximised',
        LAYOUT_USER: 'user',
        LAYOUT_DEVELOPER: 'developer',
      },
    },
    vscode: {},
    jupyter: {},
    changes: {},
    devops: {},
    terminal: { on: { POP_OUT: 'poppedOut' } },
    poppedOut: { on: { CLOSE_WINDOW: 'terminal' } },
    maximised: { on: { RESTORE_TILE: 'pm' } },
    user: { on: { LAYOUT_PM: 'pm' } },
    developer: { on: { SAVE_LAYOUT: 'saveDialog' } },
    saveDialog: { on: { CANCEL_SAVE: 'developer', SAVE: 'saved' } },
    // The PM layout is selected on workspace load (spec): a reload leaves the saved layout listed.
    saved: { on: { RELOAD: 'pmWithSaved', LAYOUT_PM: 'pmWithSaved' } },
    pmWithSaved: { on: { RESTORE_SAVED: 'saved' } },
  },
});

interface World {
  page: Page;
  /** The name this path saves its layout under (one installation's user saves them all). */
  layoutName: string;
  popup: Page | null;
  errors: string[];
}

const accessible = async (page: Page) => expect(await seriousAccessibilityViolations(page)).toEqual([]);

/** Checks the page shows the preset's tabs: those it must have and those it must not. */
async function showsTabs(page: Page, present: string[], absent: string[]) {
  for (const name of present) await tabButton(page, name).waitFor();
  for (const name of absent) expect(await tabButton(page, name).count()).toBe(0);
}

async function savedLayoutListed(page: Page, name: string) {
  await openMenu(page, 'Layout');
  await page.getByRole('menuitem', { name: `Saved: ${name}` }).waitFor();
  await page.keyboard.press('Escape');
}

describe.skipIf(browserMissing())('journey: conversation → every tab → layouts → save, reload, restore, popout', () => {
  const llm = new FakeLlm('fake-model');
  const suite = browserSuite({ mode: 'oss', llm });
  const openPage = pagesWithoutErrors();
  let conversation: Promise<string> | null = null;
  let paths = 0;

  /** One running conversation serves every path (each starts from the PM layout). */
  const runningConversation = () =>
    (conversation ??= createOssConversation(suite.server).then(async (id) => {
      await waitFor(
        async () =>
          ((await (await fetch(`${suite.server.url}/api/conversations/${id}`)).json()) as { status: string }).status,
        (status) => status === 'RUNNING',
        30_000,
        'the conversation to run',
      );
      return id;
    }));

  journeyTests<World>({
    model: journey,
    events: [
      'OPEN_VSCODE',
      'OPEN_TERMINAL',
      'OPEN_JUPYTER',
      'OPEN_CHANGES',
      'OPEN_DEVOPS',
      'MAXIMISE',
      'RESTORE_TILE',
      'LAYOUT_USER',
      'LAYOUT_DEVELOPER',
      'LAYOUT_PM',
      'POP_OUT',
      'CLOSE_WINDOW',
      'SAVE_LAYOUT',
      'CANCEL_SAVE',
      'SAVE',
      'RELOAD',
      'RESTORE_SAVED',
    ].map((type) => ({ type })),

    async start() {
      const id = await runningConversation();
      const page = await openPage(suite.browser);
      await page.goto(`${suite.server.url}/experiment/conversations/${id}`);
      await tabButton(page, 'Chat').waitFor();
      // Whatever layout an earlier path left: the PM preset.
      await chooseMenuItem(page, 'Layout', 'PM');
      return { page, layoutName: `mine ${++paths}`, popup: null, errors: [] };
    },

    states: {
      async pm({ page }) {
        // Chat beside the web app and the browser.
        await showsTabs(page, ['Chat', 'App', 'Browser'], ['VS Code', 'DevOps Agent']);
        await page.getByRole('region', { name: 'Chat with the agent' }).waitFor();
        await accessible(page);
      },
      async vscode({ page }) {
        await tabButton(page, 'VS Code').waitFor();
        await page.getByRole('navigation', { name: 'Files' }).waitFor();
      },
      async jupyter({ page }) {
        await page.getByRole('region', { name: 'Notebook' }).getByText('No Python code has run yet.').waitFor();
      },
      async changes({ page }) {
        await tabButton(page, 'Changes').waitFor();
        await page
          .getByText(/^(No changes yet\.|This workspace is not a git repository\.)$/)
          .first()
          .waitFor();
        await accessible(page);
      },
      async devops({ page }) {
        await page.getByRole('region', { name: 'DevOps Agent' }).waitFor();
      },
      async terminal({ page, popup }) {
        expect(popup).toBeNull();
        await tabButton(page, 'Terminal').waitFor();
        expect(await tabButton(page, 'Terminal').count()).toBe(1);
        await page.getByRole('region', { name: 'Terminal' }).waitFor();
      },
      async poppedOut({ page, popup }) {
        // The tab left the layout for its window, where the terminal is still live.
        await tabButton(page, 'Terminal').waitFor({ state: 'detached' });
        await popup?.getByRole('region', { name: 'Terminal' }).waitFor();
      },
      async maximised({ page }) {
        // Only the maximised tile is drawn: the chat's tile fills the workspace.
        await expect
          .poll(async () => await page.getByRole('tab', { name: 'App', exact: true }).isVisible())
          .toBe(false);
        await page.getByRole('region', { name: 'Chat with the agent' }).waitFor();
      },
      async user({ page }) {
        // The web app only.
        await showsTabs(page, ['App'], ['Chat', 'VS Code']);
      },
      async developer({ page }) {
        await showsTabs(page, ['Chat', 'DevOps Agent', 'App', 'VS Code', 'Browser'], []);
        expect(await page.getByRole('dialog').count()).toBe(0);
      },
      async saveDialog({ page }) {
        const dialog = page.getByRole('dialog', { name: 'Save Layout' });
        // Nothing to save under an empty name.
        expect(await dialog.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
        await accessible(page);
      },
      async saved({ page, layoutName }) {
        await showsTabs(page, ['Chat', 'DevOps Agent', 'App', 'VS Code', 'Browser'], []);
        expect(await page.getByRole('dialog').count()).toBe(0);
        await savedLayoutListed(page, layoutName);
      },
      async pmWithSaved({ page, layoutName }) {
        await showsTabs(page, ['Chat', 'App', 'Browser'], ['VS Code', 'DevOps Agent']);
        await savedLayoutListed(page, layoutName);
      },
    },

    steps: {
      async OPEN_VSCODE({ page }) {
        await chooseMenuItem(page, 'Window', 'VS Code');
      },
      async OPEN_TERMINAL({ page }) {
        await chooseMenuItem(page, 'Window', 'Terminal');
      },
      async OPEN_JUPYTER({ page }) {
        await chooseMenuItem(page, 'Window', 'Jupyter');
      },
      async OPEN_CHANGES({ page }) {
        await chooseMenuItem(page, 'Window', 'Changes');
      },
      async OPEN_DEVOPS({ page }) {
        await chooseMenuItem(page, 'Window', 'DevOps Agent');
      },
      async MAXIMISE({ page }) {
        // By its keyboard shortcut (the Layout menu's 'Maximise (Alt+Shift+M)').
        await tabButton(page, 'Chat').click();
        await page.keyboard.press('Alt+Shift+M');
      },
      async RESTORE_TILE({ page }) {
        // Maximise toggles: the tiles come back.
        await page.keyboard.press('Alt+Shift+M');
      },
      async LAYOUT_USER({ page }) {
        await chooseMenuItem(page, 'Layout', 'User');
      },
      async LAYOUT_DEVELOPER({ page }) {
        await chooseMenuItem(page, 'Layout', 'Developer');
      },
      async LAYOUT_PM({ page }) {
        await chooseMenuItem(page, 'Layout', 'PM');
      },
      async POP_OUT(world) {
        await tabButton(world.page, 'Terminal').click();
        world.popup = await popOutActiveTab(world.page, 'Terminal', (message) => world.errors.push(message));
      },
      async CLOSE_WINDOW(world) {
        // The user closes the window: the tab comes back into the layout.
        await world.popup?.close({ runBeforeUnload: true });
        world.popup = null;
        expect(world.errors).toEqual([]);
      },
      async SAVE_LAYOUT({ page }) {
        await chooseMenuItem(page, 'Layout', 'Save current layout');
      },
      async CANCEL_SAVE({ page }) {
        const dialog = page.getByRole('dialog', { name: 'Save Layout' });
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'detached' });
      },
      async SAVE({ page, layoutName }) {
        const dialog = page.getByRole('dialog', { name: 'Save Layout' });
        // The name is trimmed.
        await dialog.getByLabel('Layout Name').fill(`  ${layoutName}  `);
        await dialog.getByRole('button', { name: 'Save', exact: true }).click();
        await dialog.waitFor({ state: 'detached' });
      },
      async RELOAD({ page }) {
        await page.reload();
        await tabButton(page, 'Chat').waitFor();
      },
      async RESTORE_SAVED({ page, layoutName }) {
        await chooseMenuItem(page, 'Layout', `Saved: ${layoutName}`);
      },
    },
  });
});
