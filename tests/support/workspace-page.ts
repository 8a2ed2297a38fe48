import type { Page } from 'playwright-core';
import { waitFor } from './conversations.ts';

// How the browser tests drive the workspace page: its menu bar, its tabs and its popout windows.

export const menuBar = (page: Page) => page.getByRole('navigation', { name: 'Workspace menu' });

export async function openMenu(page: Page, menu: string) {
  await menuBar(page).getByRole('button', { name: menu, exact: true }).click();
}

export async function chooseMenuItem(page: Page, menu: string, item: string) {
  await openMenu(page, menu);
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

export const tabButton = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });

/**
 * Layout → Open in a new window on the active tab; resolves with the window showing it (titled
 * with the tab's name), whose uncaught errors go to `onError`. A development build runs effects
 * twice (StrictMode), so flexlayout may open, close and open the window again: the popout is the
 * window still open.
 */
export async function popOutActiveTab(page: Page, tab: string, onError: (message: string) => void): Promise<Page> {
  const windows: Page[] = [];
  const collect = (opened: Page) => void windows.push(opened);
  page.context().on('page', collect);
  await chooseMenuItem(page, 'Layout', 'Open in a new window');
  const popup = await waitFor(
    async () => {
      for (const candidate of windows.filter((opened) => !opened.isClosed()))
        if ((await candidate.title().catch(() => '')) === tab) return candidate;
      return null;
    },
    (found) => found !== null,
    20_000,
    `the popout window of ${tab}`,
  );
  page.context().off('page', collect);
  if (!popup) throw new Error(`no popout window for ${tab}`);
  popup.on('pageerror', (error) => onError(`popout: ${error.message}`));
  return popup;
}

/** The view of the Terminal tab shown now (the Agent view or one of the user's terminals). */
export const shownTerminal = (page: Page) =>
  page.getByRole('region', { name: 'Terminal' }).locator('[role="tabpanel"]:not([hidden])');

/** The shown terminal's screen, one string per row (xterm's DOM renderer draws a div a row). */
export const terminalLines = async (page: Page) =>
  (await shownTerminal(page).locator('.xterm-rows > div').allInnerTexts()).map((row) =>
    row.replaceAll('\u00a0', ' ').trimEnd(),
  );

/** Types into the shown terminal as a person does (keys, then Enter unless `enter` is false). */
export async function typeInTerminal(page: Page, text: string, enter = true) {
  await shownTerminal(page).locator('.xterm-helper-textarea').focus();
  await page.keyboard.type(text);
  if (enter) await page.keyboard.press('Enter');
}
