import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { browserSuite, createOssConversation, pagesWithoutErrors } from '../support/browser-suite.ts';
import { waitFor } from '../support/conversations.ts';

// The app on a phone (390 × 844) and a tablet (768 × 1024): nothing wraps one word per line or
// runs off the side; below 768 px the sidebar is a drawer and the workspace one tile at a time.

/** How far the page reaches past the right edge of the window (0: it fits). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
const tiles = (page: Page) => page.locator('.flexlayout__tabset').count();
const tabNames = (page: Page) =>
  page.getByRole('tab').evaluateAll((tabs) => tabs.map((tab) => tab.getAttribute('aria-label')));

describe.skipIf(browserMissing())('small screens', () => {
  const suite = browserSuite({ mode: 'oss' });
  const openPage = pagesWithoutErrors();

  /** With no model saved, a self-hosted dashboard opens the AI settings first: it fits the screen and closes. */
  async function closeModelModal(page: Page) {
    const modal = page.getByRole('dialog', { name: 'AI provider configuration' });
    await modal.getByLabel('Provider').waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    const box = await modal.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= (page.viewportSize()?.width ?? 0)).toBe(true);
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
  }

  async function openWorkspace(width: number, height: number) {
    const { server, browser } = suite;
    const conversationId = await createOssConversation(server);
    const page = await openPage(browser);
    await page.setViewportSize({ width, height });
    await page.goto(`${server.url}/experiment/conversations/${conversationId}`);
    await page.getByRole('tab', { name: 'Chat', exact: true }).waitFor();
    return page;
  }

  it('on a phone: the sidebar is a drawer, and the workspace shows one tile with its tabs as a strip', async () => {
    const { server, browser } = suite;
    const page = await openPage(browser);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
    await closeModelModal(page);
    expect(await page.getByRole('navigation', { name: 'Sidebar' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const sidebar = page.getByRole('navigation', { name: 'Sidebar' });
    await sidebar.getByRole('link', { name: 'New conversation' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await sidebar.waitFor({ state: 'detached' });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.close();

    const workspace = await openWorkspace(390, 844);
    // The pm layout's three tabs, in one tile.
    expect(await tiles(workspace)).toBe(1);
    expect(await tabNames(workspace)).toEqual(['Chat', 'App', 'Browser']);
    const chat = workspace.getByRole('region', { name: 'Chat with the agent' });
    expect((await chat.boundingBox())?.width).toBeGreaterThanOrEqual(320);
    await chat.getByRole('button', { name: 'Send', exact: true }).waitFor();
    await workspace.getByRole('tab', { name: 'Browser', exact: true }).click();
    await workspace.getByRole('tab', { name: 'Browser', exact: true, selected: true }).waitFor();
    expect(await overflow(workspace)).toBeLessThanOrEqual(0);
    expect(await seriousAccessibilityViolations(workspace)).toEqual([]);
    await workspace.close();
  });

  it('on a tablet: the sidebar stays; one tile beside it open, two beside it collapsed, the chat always wide enough', async () => {
    const { server, browser } = suite;
    const page = await openPage(browser);
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('heading', { name: 'How can I help you today?' }).waitFor();
    await closeModelModal(page);
    await page.getByRole('navigation', { name: 'Sidebar' }).waitFor();
    expect(await page.getByRole('button', { name: 'Open menu' }).count()).toBe(0);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.close();

    // Beside the open sidebar there is no room for the chat and another tile: one tile; with the sidebar collapsed, two.
    const workspace = await openWorkspace(768, 1024);
    const chat = workspace.getByRole('region', { name: 'Chat with the agent' });
    await waitFor(
      () => tiles(workspace),
      (count) => count === 1,
      5_000,
      'one tile beside the open sidebar',
    );
    expect((await chat.boundingBox())?.width).toBeGreaterThanOrEqual(320);
    expect(await overflow(workspace)).toBeLessThanOrEqual(0);
    await workspace.getByRole('button', { name: 'Collapse sidebar' }).click();
    await waitFor(
      () => tiles(workspace),
      (count) => count === 2,
      5_000,
      'two tiles beside the collapsed sidebar',
    );
    expect((await chat.boundingBox())?.width).toBeGreaterThanOrEqual(320);
    await chat.getByRole('button', { name: 'Send', exact: true }).waitFor();
    expect(await overflow(workspace)).toBeLessThanOrEqual(0);
    // The choice is kept across pages and visits.
    await workspace.reload();
    await workspace.getByRole('button', { name: 'Expand sidebar' }).waitFor();
    await workspace.close();
  });
});
