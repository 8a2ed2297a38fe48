import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { browserSuite, pagesWithoutErrors } from '../support/browser-suite.ts';
import { FakeLlm } from '../support/fake-llm/index.ts';
import { startGitHubApiServer } from '../support/git-host-apis.ts';
import { GitHttpServer } from '../support/git-http-server.ts';
import { mailedLink } from '../support/mail.ts';
import type { RunningServer } from '../support/server.ts';

const PASSWORD = 'correct horse battery';
const TOKEN = 'ghp_browser_test';
const openPage = pagesWithoutErrors();

// A GitHub-like host on this machine: its REST API and git itself on one address.
const remotes = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-e2e-remotes-'));
const git = new GitHttpServer(remotes, { user: 'x-access-token', token: TOKEN });
let github: Awaited<ReturnType<typeof startGitHubApiServer>>;
beforeAll(async () => {
  git.createRepository(
    'octo/widgets',
    { main: { 'README.md': '# Widgets\n' }, feature: { 'feature.txt': 'new feature\n' } },
    'main',
  );
  const others = Array.from({ length: 31 }, (_, i) => ({
    id: 100 + i,
    full_name: `octo/old-${String(i).padStart(2, '0')}`,
    pushed_at: `2025-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00Z`,
  }));
  github = await startGitHubApiServer({
    token: TOKEN,
    repositories: [
      {
        id: 1,
        full_name: 'octo/widgets',
        pushed_at: '2026-11-20T00:00:00Z',
        branches: [
          { name: 'main', sha: '1'.repeat(40) },
          { name: 'feature', sha: '2'.repeat(40) },
        ],
      },
      ...others,
    ],
    gitBackend: (request, response) => git.handle(request, response),
  });
});
afterAll(async () => {
  await github?.close();
  fs.rmSync(remotes, { recursive: true, force: true });
});

async function activeAccountWithGitHub(server: RunningServer) {
  const post = (url: string, body: unknown, token?: string) =>
    fetch(`${server.url}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
  const email = `dev.${Date.now()}@acme-e2e.dev`;
  expect((await post('/api/auth/register', { name: 'Dev', email, password: PASSWORD })).status).toBe(200);
  const verification = new URLSearchParams((await mailedLink(server, email)).split('?')[1]).get('token');
  expect((await post('/api/auth/verify-email', { token: verification })).status).toBe(200);
  expect((await server.admin('activate-user', email)).code).toBe(0);
  // A conversation in the hosted mode needs credit.
  expect((await server.admin('grant-credits', email, '5')).code).toBe(0);
  const { access_token: token } = (await (await post('/api/auth/login', { email, password: PASSWORD })).json()) as {
    access_token: string;
  };
  const saved = await post('/api/settings', { provider_tokens: { github: { token: TOKEN, host: github.url } } }, token);
  expect(saved.status).toBe(200);
  return token;
}

describe.skipIf(browserMissing())('repositories on the home page in Chromium', () => {
  // The sandbox reaches the host's loopback only on the ports named here.
  const suite = browserSuite({
    mode: 'saas',
    llm: new FakeLlm('fake-model'),
    env: () => ({ SANDBOX_HOST_PORTS: new URL(github.url).port }),
  });

  it('lists the user’s repositories page by page, searches as they type, and launches a conversation on the picked branch with the clone in its workspace', async () => {
    const { server, browser } = suite;
    const token = await activeAccountWithGitHub(server);
    const page = await openPage(browser);
    await page.goto(`${server.url}/terms`);
    await page.evaluate((value) => localStorage.setItem('atelier_token', value), token);
    await page.goto(`${server.url}/dashboard`);

    const section = page.getByRole('region', { name: 'Repository' });
    const list = section.getByRole('list', { name: 'Repositories' });
    await list.getByRole('button', { name: /octo\/widgets/ }).waitFor();
    // 32 repositories: a page of 30, then the rest on demand.
    expect(await list.getByRole('listitem').count()).toBe(30);
    await section.getByRole('button', { name: 'Load more' }).click();
    await list.getByRole('button', { name: /octo\/old-00/ }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(32);
    expect(await list.getByRole('img', { name: 'GitHub' }).count()).toBe(32);

    await section.getByRole('searchbox', { name: 'Search repositories' }).fill('widg');
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Repositories"] li').length === 1);
    expect(github.requests.some((r) => r.path.startsWith('/api/v3/search/repositories?q=widg'))).toBe(true);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await list.getByRole('button', { name: /octo\/widgets/ }).click();
    const branch = section.getByRole('combobox', { name: 'Branch' });
    await branch.waitFor();
    expect(await branch.inputValue()).toBe('main');
    await branch.selectOption('feature');
    await page.getByRole('button', { name: 'Launch' }).click();
    await page.waitForURL('**/experiment/conversations/**');
    const id = new URL(page.url()).pathname.split('/').at(-1) ?? '';

    const api = (url: string) => fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
    expect(await (await api(`/api/conversations/${id}`)).json()).toMatchObject({
      selected_repository: 'octo/widgets',
      selected_branch: 'feature',
      git_provider: 'github',
    });
    // The runtime cloned it from the same host, on the chosen branch.
    await expect
      .poll(async () => (await api(`/api/conversations/${id}/list-files`)).json(), { timeout: 60_000 })
      .toEqual(expect.arrayContaining(['README.md', 'feature.txt']));
    // Launched without a prompt: the agent waits for the first message.
    const events = (await (await api(`/api/conversations/${id}/events`)).json()) as { events: { source: string }[] };
    expect(events.events.filter((e) => e.source === 'user')).toEqual([]);
    expect(git.requests.some((r) => r.path.startsWith('/octo/widgets.git') && r.user === 'x-access-token')).toBe(true);

    // Its card in the conversation list names the repository with its host's mark.
    await page.getByRole('button', { name: 'Show conversations' }).click();
    const card = page.getByRole('region', { name: 'Conversations' }).getByRole('article');
    await card.getByText('octo/widgets').waitFor();
    expect(await card.getByRole('img', { name: 'GitHub' }).count()).toBe(1);
    await page.close();
  }, 120_000);
});
