import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../server/db/index.ts';
import { users } from '../../server/db/schema.ts';
import { callbackUrl, exchangeCode, refreshGrant } from '../../server/modules/identity/oauth.ts';
import { createSettingsStore } from '../../server/modules/settings/store.ts';
import { createTokenRefresh, type RefreshToken } from '../../server/modules/settings/token-refresh.ts';
import { SecretBox } from '../../server/shared/secret-box.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startGitLabApiServer } from '../support/git-host-apis.ts';

// Two nodes refresh the same GitLab sign-in token at once: each has its own refreshes under way
// (nothing shared but the database), and GitLab takes a refresh token once.

const APP = { clientId: 'atelier-client', clientSecret: 'atelier-secret' };
let test: TestDatabase;
let database: Database;
let gitlab: Awaited<ReturnType<typeof startGitLabApiServer>>;
beforeAll(async () => {
  test = await createTestDatabase();
  database = await test.open();
  gitlab = await startGitLabApiServer({ token: 'glo_nodes', oauth: APP, oauthLifetime: 60, repositories: [] });
});
afterAll(async () => {
  await database?.close();
  await test?.destroy();
  await gitlab?.close();
});

it('saves one refresh when two nodes trade the same refresh token, and both use its token', async () => {
  await database.db.insert(users).values({ id: 'u-nodes', email: 'nodes@example.com', fullname: 'Nodes' });
  const store = createSettingsStore(database.db, new SecretBox('k'.repeat(40)));
  const app = { ...APP, host: gitlab.url };
  const publicUrl = 'http://atelier.test';
  // The sign-in's grant for a code, as a sign-in gets and saves it.
  const grant = await exchangeCode('gitlab', app, publicUrl, gitlab.issueCode(callbackUrl(publicUrl, 'gitlab')));
  await store.setToken('u-nodes', 'gitlab', grant.token, gitlab.url, grant);
  const trade: RefreshToken = (provider, refreshToken) => refreshGrant(provider, app, publicUrl, refreshToken);
  const [nodeA, nodeB] = [createTokenRefresh(store, trade), createTokenRefresh(store, trade)];
  const saved = await store.tokens('u-nodes');
  const [a, b] = await Promise.all([nodeA.usable('u-nodes', saved), nodeB.usable('u-nodes', saved)]);
  expect(gitlab.refreshes).toEqual({ granted: 1, refused: 1 });
  expect(a[0]?.token).toMatch(/^glo_nodes-refreshed-/);
  expect(b[0]?.token).toBe(a[0]?.token);
  const [now] = await store.tokens('u-nodes');
  expect(now?.token).toBe(a[0]?.token);
  // The refresh token saved is the one GitLab gave with that token: the next refresh takes it.
  const next = await nodeA.usable('u-nodes', [now!]);
  expect(next[0]?.token).not.toBe(a[0]?.token);
  expect(gitlab.refreshes).toEqual({ granted: 2, refused: 1 });
});
