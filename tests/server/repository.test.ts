import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, signUp, waitFor, waitRunning } from '../support/conversations.ts';
import { GitHttpServer } from '../support/git-http-server.ts';
import type { Conversation, Event } from '../../openapi/types.ts';

// A conversation's repository is checked out into its workspace on first start, from a real
// git smart-HTTP host that wants the user's token. The host listens on this machine's
// loopback, which the sandbox reaches only through SANDBOX_HOST_PORTS.
const remotes = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-git-'));
const host = new GitHttpServer(remotes, { user: 'x-access-token', token: 'ghp_repository_test' });
let base: string;
beforeAll(async () => {
  base = await host.start();
});
const t = withTestApp(() => ({ SANDBOX_HOST_PORTS: new URL(base).port }));
let user: { token: string; id: string };

beforeAll(async () => {
  host.createRepository(
    'acme/widgets',
    { trunk: { 'README.md': '# Widgets\n' }, feature: { 'feature.txt': 'new feature\n' } },
    'trunk',
  );
  user = await signUp(t.app, t.db, 'dev@acme.example');
  const saved = await call(t.app, 'POST', '/api/settings', {
    token: user.token,
    body: { provider_tokens: { github: { token: 'ghp_repository_test', host: base } } },
  });
  expect(saved.status).toBe(200);
});
afterAll(async () => {
  await host.stop();
  fs.rmSync(remotes, { recursive: true, force: true });
});

const workspaceFile = (id: string, file: string) =>
  fs.readFileSync(path.join(t.database.dataDir, 'workspaces', id, file), 'utf8');
const statuses = async (id: string) =>
  (
    (await call(t.app, 'GET', `/api/conversations/${id}/events?limit=100`, { token: user.token })).body
      ?.events as Event[]
  )
    .filter((e) => e.status_update)
    .reverse();

describe('the selected repository', () => {
  it('is checked out on the selected branch with the user’s token, which stays out of the workspace; a restart keeps the work', async () => {
    const conversation = await createRunning(t.app, user.token, {
      repository: 'acme/widgets',
      git_provider: 'github',
      selected_branch: 'feature',
    });
    const id = conversation.conversation_id;
    const files = await call(t.app, 'GET', `/api/conversations/${id}/list-files`, { token: user.token });
    expect(files.body).toEqual(expect.arrayContaining(['README.md', 'feature.txt']));
    expect(workspaceFile(id, '.git/HEAD').trim()).toBe('ref: refs/heads/feature');
    expect((await call(t.app, 'GET', `/api/conversations/${id}/git/changes`, { token: user.token })).body).toEqual([]);
    expect(workspaceFile(id, '.git/config')).not.toContain('ghp_repository_test');
    expect(host.requests.some((r) => r.user === 'x-access-token')).toBe(true);
    expect((await statuses(id)).map((e) => e.status_id)).toContain('STATUS$REPOSITORY_CHECKED_OUT');

    await call(t.app, 'POST', `/api/conversations/${id}/save-file`, {
      token: user.token,
      body: { path: 'feature.txt', content: 'changed\n' },
    });
    await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: user.token });
    await call(t.app, 'POST', `/api/conversations/${id}/start`, { token: user.token, body: {} });
    await waitRunning(t.app, user.token, id);
    expect((await call(t.app, 'GET', `/api/conversations/${id}/git/changes`, { token: user.token })).body).toEqual([
      { path: 'feature.txt', status: 'M' },
    ]);
    expect((await statuses(id)).filter((e) => e.status_id === 'STATUS$REPOSITORY_CHECKED_OUT')).toHaveLength(1);
    await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: user.token });
  });

  it('comes on the repository’s default branch when none is selected', async () => {
    const { conversation_id: id } = await createRunning(t.app, user.token, {
      repository: 'acme/widgets',
      git_provider: 'github',
    });
    expect(workspaceFile(id, '.git/HEAD').trim()).toBe('ref: refs/heads/trunk');
    expect(workspaceFile(id, 'README.md')).toBe('# Widgets\n');
    await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: user.token });
  });

  it('that cannot be checked out is reported in the chat, and the conversation runs without it', async () => {
    const { conversation_id: id } = await createRunning(t.app, user.token, {
      repository: 'acme/missing',
      git_provider: 'github',
    });
    const failure = await waitFor(
      () => statuses(id),
      (list) => list.some((e) => e.status_id === 'STATUS$ERROR_REPOSITORY_CHECKOUT'),
      10_000,
      'the failure',
    );
    expect(failure.find((e) => e.status_id === 'STATUS$ERROR_REPOSITORY_CHECKOUT')).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/^The repository acme\/missing could not be checked out: /),
    });
    expect(
      ((await call(t.app, 'GET', `/api/conversations/${id}`, { token: user.token })).body as unknown as Conversation)
        .status,
    ).toBe('RUNNING');
    await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: user.token });
  });

  it('must look like owner/name, and a branch cannot pass for an option', async () => {
    for (const body of [
      { repository: '../etc' },
      { repository: 'acme' },
      { repository: 'acme/widgets', selected_branch: '--upload-pack=x' },
    ]) {
      const refused = await call(t.app, 'POST', '/api/conversations', { token: user.token, body });
      expect(refused.status).toBe(422);
    }
  });
});
