import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';
import {
  startBitbucketApiServer,
  startGitHubApiServer,
  startGitLabApiServer,
  type FakeHostOptions,
} from '../support/git-host-apis.ts';

// The /api/user/* git calls through a user's saved GitHub token, against a local server that
// answers like GitHub's REST API (as GitHub Enterprise Server does, under /api/v3).

const TOKEN = 'ghp_good_token';
const FIXTURE: FakeHostOptions = {
  token: TOKEN,
  limitedToken: 'ghp_rate_limited',
  repositories: [
    {
      id: 1,
      full_name: 'octo/atelier-app',
      pushed_at: '2026-11-20T00:00:00Z',
      stargazers_count: 5,
      branches: [
        { name: 'main', sha: '1'.repeat(40), protected: true },
        { name: 'feature/login', sha: '2'.repeat(40) },
      ],
      files: {
        '.openhands/microagents/testing.md':
          '---\nname: testing\ntriggers:\n  - test\n  - pytest\n---\nRun the tests with npm test.\n',
        '.openhands/microagents/repo.md': 'This repository is a web app.\n',
        '.openhands/microagents/README.md': 'Not a microagent.',
      },
    },
    { id: 2, full_name: 'octo/atelier-docs', private: true, pushed_at: '2026-11-10T00:00:00Z' },
    { id: 3, full_name: 'octo/other', pushed_at: '2026-10-01T00:00:00Z', default_branch: 'trunk' },
  ],
  installations: [{ id: 42, repositories: ['octo/atelier-docs'] }],
};
let github: Awaited<ReturnType<typeof startGitHubApiServer>>;
let gitlab: Awaited<ReturnType<typeof startGitLabApiServer>>;
let bitbucket: Awaited<ReturnType<typeof startBitbucketApiServer>>;
beforeAll(async () => {
  [github, gitlab, bitbucket] = await Promise.all([
    startGitHubApiServer(FIXTURE),
    startGitLabApiServer(FIXTURE),
    startBitbucketApiServer(FIXTURE),
  ]);
});
afterAll(() => Promise.all([github?.close(), gitlab?.close(), bitbucket?.close()]));

// The test's git hosts are on this machine: allowed as an operator allows a server on its LAN.
const t = withTestApp({ OUTBOUND_ALLOWED_RANGES: '127.0.0.1' });

async function connected(email: string, token = TOKEN, provider: 'github' | 'gitlab' | 'bitbucket' = 'github') {
  const user = await signUp(t.app, t.db, email);
  const host = { github, gitlab, bitbucket }[provider].url;
  const saved = await call(t.app, 'POST', '/api/settings', {
    token: user.token,
    body: { provider_tokens: { [provider]: { token, host } } },
  });
  expect(saved.status).toBe(200);
  return user;
}

describe('git calls through the GitHub API', () => {
  it('answers the git user, the repositories page by page with a Link header, search, branches and installations', async () => {
    const ada = await connected('ada-git@acme.example');
    const get = (url: string) => call(t.app, 'GET', url, { token: ada.token });
    expect((await get('/api/user/info')).body).toEqual({
      id: '7',
      login: 'octo',
      avatar_url: 'https://avatars.example/7',
      company: null,
      name: 'Octo Cat',
      email: 'octo@example.com',
    });
    // The token went to the host as a bearer token, and only there.
    expect(github.requests.at(-1)).toEqual({ path: '/api/v3/user', authorization: `Bearer ${TOKEN}` });

    const first = await get('/api/user/repositories?selected_provider=github&per_page=2');
    expect(first.body).toEqual([
      {
        id: '1',
        full_name: 'octo/atelier-app',
        git_provider: 'github',
        is_public: true,
        stargazers_count: 5,
        pushed_at: '2026-11-20T00:00:00Z',
        main_branch: 'main',
      },
      expect.objectContaining({ full_name: 'octo/atelier-docs', is_public: false }),
    ]);
    expect(first.headers.link).toBe(
      '</api/user/repositories?selected_provider=github&sort=pushed&page=2&per_page=2>; rel="next"',
    );
    const second = await get('/api/user/repositories?selected_provider=github&sort=pushed&page=2&per_page=2');
    expect((second.body as unknown as { full_name: string }[]).map((r) => r.full_name)).toEqual(['octo/other']);
    expect(second.headers.link).toBeUndefined();
    // The default page size is the spec's 30.
    expect(github.requests.some((r) => r.path === '/api/v3/user/repos?sort=pushed&page=1&per_page=30')).toBe(false);
    await get('/api/user/repositories');
    expect(github.requests.at(-1)?.path).toBe('/api/v3/user/repos?sort=pushed&page=1&per_page=30');

    const installed = await get('/api/user/repositories?installation_id=42');
    expect((installed.body as unknown as { full_name: string }[]).map((r) => r.full_name)).toEqual([
      'octo/atelier-docs',
    ]);
    expect((await get('/api/user/installations?provider=github')).body).toEqual(['42']);
    expect((await get('/api/user/installations?provider=gitlab')).body).toEqual([]);

    const found = await get('/api/user/search/repositories?query=atelier');
    expect((found.body as unknown as { full_name: string }[]).map((r) => r.full_name)).toEqual([
      'octo/atelier-app',
      'octo/atelier-docs',
    ]);
    expect(github.requests.at(-1)?.path).toBe('/api/v3/search/repositories?q=atelier%20in%3Aname&per_page=5');

    expect((await get('/api/user/repository/branches?repository=octo/atelier-app')).body).toEqual([
      { name: 'main', commit_sha: '1'.repeat(40), protected: true, last_push_date: null },
      { name: 'feature/login', commit_sha: '2'.repeat(40), protected: false, last_push_date: null },
    ]);
  });

  it('lists a repository’s microagents and reads one, with their type and triggers', async () => {
    const bea = await connected('bea-git@acme.example');
    const get = (url: string) => call(t.app, 'GET', url, { token: bea.token });
    const listed = (await get('/api/user/repository/octo/atelier-app/microagents')).body as unknown as {
      name: string;
    }[];
    expect([...listed].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'repo', path: '.openhands/microagents/repo.md', type: 'repo', triggers: [], created_at: null },
      {
        name: 'testing',
        path: '.openhands/microagents/testing.md',
        type: 'knowledge',
        triggers: ['test', 'pytest'],
        created_at: null,
      },
    ]);
    expect(
      (
        await get(
          '/api/user/repository/octo/atelier-app/microagents/content?file_path=.openhands/microagents/testing.md',
        )
      ).body,
    ).toEqual({
      content: 'Run the tests with npm test.',
      path: '.openhands/microagents/testing.md',
      triggers: ['test', 'pytest'],
      git_provider: 'github',
    });
    expect((await get('/api/user/repository/octo/other/microagents')).body).toEqual([]);
  });

  it('reads a repository’s microagents on the provider asked for, not the first connected one', async () => {
    const dee = await connected('dee-git@acme.example');
    const saved = await call(t.app, 'POST', '/api/settings', {
      token: dee.token,
      body: { provider_tokens: { gitlab: { token: TOKEN, host: gitlab.url } } },
    });
    expect(saved.status).toBe(200);
    const get = (url: string) => call(t.app, 'GET', url, { token: dee.token });
    const asked = (host: { requests: { path: string }[] }) =>
      host.requests.filter((r) => r.path.includes('microagents')).length;
    const [onGitHub, onGitLab] = [asked(github), asked(gitlab)];
    const listed = await get('/api/user/repository/octo/atelier-app/microagents?selected_provider=gitlab');
    expect(listed.status).toBe(200);
    const content = await get(
      '/api/user/repository/octo/atelier-app/microagents/content?file_path=.openhands/microagents/repo.md&selected_provider=gitlab',
    );
    expect(content.body).toMatchObject({ git_provider: 'gitlab', content: 'This repository is a web app.' });
    expect(asked(github)).toBe(onGitHub);
    expect(asked(gitlab)).toBeGreaterThan(onGitLab);
  });

  it('names the provider when it refuses: a rejected token, a rate limit, a repository it does not have', async () => {
    const cy = await connected('cy-git@acme.example', 'ghp_revoked');
    const rejected = await call(t.app, 'GET', '/api/user/info', { token: cy.token });
    expect(rejected).toMatchObject({
      status: 403,
      body: { detail: 'GitHub rejected the token. Replace it in Settings → Integrations.' },
    });
    // Atelier's own session is fine: the user stays signed in.
    expect((await call(t.app, 'GET', '/api/auth/me/extended', { token: cy.token })).status).toBe(200);

    const dan = await connected('dan-git@acme.example', 'ghp_rate_limited');
    expect(await call(t.app, 'GET', '/api/user/repositories', { token: dan.token })).toMatchObject({
      status: 503,
      body: {
        detail: `GitHub's rate limit for this token is reached until ${new Date(1795000000 * 1000).toISOString()}; try again later.`,
      },
    });

    const eve = await connected('eve-git@acme.example');
    expect(
      await call(t.app, 'GET', '/api/user/repository/branches?repository=octo/missing', { token: eve.token }),
    ).toMatchObject({
      status: 404,
      body: { detail: 'GitHub has no repository octo/missing, or this token cannot see it.' },
    });
  });

  it('answers 503 when the host answers 200 with something other than JSON', async () => {
    const page = createServer((_request, response) => response.setHeader('content-type', 'text/html').end('<html>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    try {
      const host = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
      const gil = await signUp(t.app, t.db, 'gil-git@acme.example');
      const body = { provider_tokens: { github: { token: TOKEN, host } } };
      expect((await call(t.app, 'POST', '/api/settings', { token: gil.token, body })).status).toBe(200);
      for (const url of ['/api/user/info', '/api/user/repositories'])
        expect(await call(t.app, 'GET', url, { token: gil.token })).toMatchObject({
          status: 503,
          body: { detail: expect.stringMatching(/^GitHub answered something other than JSON for /) },
        });
    } finally {
      page.close();
    }
  });

  it('needs a signed-in user and that user’s own token', async () => {
    expect((await call(t.app, 'GET', '/api/user/info')).status).toBe(401);
    const fay = await signUp(t.app, t.db, 'fay-git@acme.example');
    // Others' tokens are theirs: without one of her own, she has no provider.
    expect(await call(t.app, 'GET', '/api/user/info', { token: fay.token })).toMatchObject({
      status: 404,
      body: { detail: 'No git provider is connected. Add a token in Settings → Integrations.' },
    });
    expect(
      await call(t.app, 'GET', '/api/user/repositories?selected_provider=gitlab', { token: fay.token }),
    ).toMatchObject({ status: 404, body: { detail: 'No GitLab token is saved. Add one in Settings → Integrations.' } });
  });
});

describe.each([
  { provider: 'gitlab' as const, name: 'GitLab', id: '1', installation: '42' },
  {
    provider: 'bitbucket' as const,
    name: 'Bitbucket',
    id: '{00000000-0000-0000-0000-000000000001}',
    installation: '42',
  },
])('git calls through the $name API', ({ provider, name, id, installation }) => {
  it('answers the git user, repositories by page, search, branches, installations and microagents', async () => {
    const user = await connected(`ada-${provider}@acme.example`, TOKEN, provider);
    const get = (url: string) => call(t.app, 'GET', url, { token: user.token });
    expect((await get('/api/user/info')).body).toMatchObject({ login: 'octo', name: 'Octo Cat' });

    const first = await get('/api/user/repositories?per_page=2');
    expect(first.body).toEqual([
      expect.objectContaining({
        id,
        full_name: 'octo/atelier-app',
        git_provider: provider,
        is_public: true,
        main_branch: 'main',
      }),
      expect.objectContaining({ full_name: 'octo/atelier-docs', is_public: false }),
    ]);
    expect(first.headers.link).toBe(
      `</api/user/repositories?selected_provider=${provider}&sort=pushed&page=2&per_page=2>; rel="next"`,
    );
    const second = await get(`/api/user/repositories?selected_provider=${provider}&page=2&per_page=2`);
    expect((second.body as unknown as { full_name: string }[]).map((r) => r.full_name)).toEqual(['octo/other']);
    expect(second.headers.link).toBeUndefined();
    const inGroup = await get(`/api/user/repositories?installation_id=${installation}`);
    expect((inGroup.body as unknown as { full_name: string }[]).map((r) => r.full_name)).toEqual(['octo/atelier-docs']);
    expect((await get(`/api/user/installations?provider=${provider}`)).body).toEqual([installation]);

    const found = await get('/api/user/search/repositories?query=atelier');
    expect((found.body as unknown as { full_name: string }[]).map((r) => r.full_name)).toEqual([
      'octo/atelier-app',
      'octo/atelier-docs',
    ]);
    const branches = (await get('/api/user/repository/branches?repository=octo/atelier-app')).body as unknown as {
      name: string;
      commit_sha: string;
    }[];
    expect(branches.map((b) => [b.name, b.commit_sha])).toEqual([
      ['main', '1'.repeat(40)],
      ['feature/login', '2'.repeat(40)],
    ]);

    const listed = (await get('/api/user/repository/octo/atelier-app/microagents')).body as unknown as {
      name: string;
      type: string;
      triggers: string[];
    }[];
    expect(listed.map((m) => [m.name, m.type, m.triggers]).sort()).toEqual([
      ['repo', 'repo', []],
      ['testing', 'knowledge', ['test', 'pytest']],
    ]);
    expect(
      (
        await get(
          '/api/user/repository/octo/atelier-app/microagents/content?file_path=.openhands/microagents/testing.md',
        )
      ).body,
    ).toMatchObject({ content: 'Run the tests with npm test.', triggers: ['test', 'pytest'], git_provider: provider });
  });

  it('names the provider when it refuses the token or limits it', async () => {
    const bob = await connected(`bob-${provider}@acme.example`, 'revoked', provider);
    expect(await call(t.app, 'GET', '/api/user/info', { token: bob.token })).toMatchObject({
      status: 403,
      // What the host said is not relayed: the status says enough.
      body: { detail: `${name} rejected the token. Replace it in Settings → Integrations.` },
    });
    const cy = await connected(`cy-${provider}@acme.example`, 'ghp_rate_limited', provider);
    const limited = await call(t.app, 'GET', '/api/user/repositories', { token: cy.token });
    expect(limited.status).toBe(503);
    expect(limited.body?.detail).toMatch(new RegExp(`^${name}'s rate limit for this token is reached`));
  });
});
