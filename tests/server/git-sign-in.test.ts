import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and } from 'drizzle-orm';
import { providerTokens, userIdentities, users } from '../../server/db/schema.ts';
import { findUserId } from '../../server/modules/auth/index.ts';
import { call, withTestApp } from '../support/app.ts';
import { completeOnboarding, createRunning, giveCredit, waitFor } from '../support/conversations.ts';
import { verifyByMail } from '../support/mail.ts';
import {
  startBitbucketApiServer,
  startGitHubApiServer,
  startGitLabApiServer,
  type FakeHostOptions,
} from '../support/git-host-apis.ts';

// Sign-in through a git host's OAuth app, against local servers that speak each host's
// authorize page, token endpoint and user endpoints.

const PUBLIC_URL = 'http://atelier.test';
const APP = { clientId: 'atelier-client', clientSecret: 'atelier-secret' };
const gitHubUser = { id: 9001, login: 'hopper', name: 'Grace Hopper', email: 'grace@navy.example' };
const gitHubFixture: FakeHostOptions = {
  token: 'gho_from_oauth',
  user: gitHubUser,
  emails: [
    { email: 'grace@navy.example', primary: true, verified: true },
    { email: 'old@navy.example', verified: false },
  ],
  oauth: APP,
  repositories: [],
};
const gitLabUser = { id: 31, login: 'lovelace', name: 'Ada Lovelace', email: 'ada@engine.example' };
const gitLabFixture: FakeHostOptions = {
  token: 'glo_from_oauth',
  user: gitLabUser,
  emails: [{ email: 'ada@engine.example', primary: true, verified: true }],
  oauth: APP,
  repositories: [],
};
const bitbucketFixture: FakeHostOptions = {
  token: 'bbo_from_oauth',
  user: { id: 44, login: 'turing', name: 'Alan Turing', email: 'alan@bombe.example' },
  emails: [
    { email: 'alan@old.example', verified: true },
    { email: 'alan@bombe.example', primary: true, verified: true },
  ],
  oauth: APP,
  repositories: [],
};

let github: Awaited<ReturnType<typeof startGitHubApiServer>>;
let gitlab: Awaited<ReturnType<typeof startGitLabApiServer>>;
let bitbucket: Awaited<ReturnType<typeof startBitbucketApiServer>>;
beforeAll(async () => {
  [github, gitlab, bitbucket] = await Promise.all([
    startGitHubApiServer(gitHubFixture),
    startGitLabApiServer(gitLabFixture),
    startBitbucketApiServer(bitbucketFixture),
  ]);
});
afterAll(() => Promise.all([github?.close(), gitlab?.close(), bitbucket?.close()]));

const oauthEnv = (prefix: string, host: string) => ({
  [`${prefix}_OAUTH_CLIENT_ID`]: APP.clientId,
  [`${prefix}_OAUTH_CLIENT_SECRET`]: APP.clientSecret,
  [`${prefix}_OAUTH_HOST`]: host,
});
// The test's git hosts are on this machine: allowed as an operator allows a server on its LAN.
const t = withTestApp(() => ({
  PUBLIC_URL,
  OUTBOUND_ALLOWED_RANGES: '127.0.0.1',
  // Renewals every second: a running conversation's tokens are read again with its lease's.
  CONVERSATION_LEASE_SECONDS: '3',
  ...oauthEnv('GITHUB', github.url),
  ...oauthEnv('GITLAB', gitlab.url),
  ...oauthEnv('BITBUCKET', bitbucket.url),
}));
// Only GitHub's app is configured here.
const gitHubOnly = withTestApp(() => ({
  PUBLIC_URL,
  OUTBOUND_ALLOWED_RANGES: '127.0.0.1',
  ...oauthEnv('GITHUB', github.url),
}));
const oss = withTestApp(() => ({ APP_MODE: 'oss', ...oauthEnv('GITHUB', github.url) }));

type Provider = 'github' | 'gitlab' | 'bitbucket';
type SignInProvider = { identity: Provider; authorize_url: string };

async function signInProviders(app = t.app) {
  return (await call(app, 'GET', '/api/options/config')).body?.SIGN_IN_PROVIDERS as SignInProvider[];
}

/** What the browser does: opens the authorize page with its state, and follows it back with the code. */
async function authorize(provider: Provider, app = t.app) {
  const { authorize_url } = (await signInProviders(app)).find((p) => p.identity === provider)!;
  const page = await fetch(`${authorize_url}&state=s-123`, { redirect: 'manual' });
  expect(page.status).toBe(302);
  const back = new URL(page.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_URL}/oauth/${provider}/callback`);
  expect(back.searchParams.get('state')).toBe('s-123');
  return back.searchParams.get('code')!;
}

const callback = (provider: string, code: string, app = t.app) =>
  call(app, 'POST', `/api/${provider}/callback`, { body: { code, state: 's-123' } });

async function signedInAs(token: string) {
  return (await call(t.app, 'GET', '/api/auth/me/extended', { token })).body as { id: string; email: string };
}

const settingsOf = async (token: string) =>
  (await call(t.app, 'GET', '/api/settings', { token })).body as { provider_tokens_set: Record<Provider, boolean> };

describe('sign-in through a git host', () => {
  it('offers the configured hosts with their authorization pages, and none in oss mode', async () => {
    const offered = await signInProviders();
    expect(offered.map((p) => p.identity)).toEqual(['github', 'gitlab', 'bitbucket']);
    const [gh, gl, bb] = offered.map((p) => new URL(p.authorize_url));
    expect(`${gh!.origin}${gh!.pathname}`).toBe(`${github.url}/login/oauth/authorize`);
    expect(Object.fromEntries(gh!.searchParams)).toEqual({
      client_id: APP.clientId,
      redirect_uri: `${PUBLIC_URL}/oauth/github/callback`,
      response_type: 'code',
      scope: 'repo read:user user:email',
    });
    expect(gl!.pathname).toBe('/oauth/authorize');
    expect(gl!.searchParams.get('scope')).toBe('api read_user');
    expect(bb!.pathname).toBe('/site/oauth2/authorize');
    expect(bb!.searchParams.has('scope')).toBe(false);
    expect((await signInProviders(gitHubOnly.app)).map((p) => p.identity)).toEqual(['github']);
    expect(await signInProviders(oss.app)).toEqual([]);
  });

  it('creates an account from GitHub’s verified primary email, saves the token, and finds it again by the link', async () => {
    const first = await callback('github', await authorize('github'));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'bearer', access_token: expect.any(String) });
    const token = first.body?.access_token as string;
    const me = await call(t.app, 'GET', '/api/auth/me/extended', { token });
    expect(me.body).toMatchObject({
      email: 'grace@navy.example',
      fullname: 'Grace Hopper',
      email_verified: true,
      // A new account goes through registration onboarding like a registered one.
      is_active: false,
    });
    // The token was sent to the host's token endpoint with the app's credentials, and is saved for the git calls.
    expect((await settingsOf(token)).provider_tokens_set).toEqual({ github: true, gitlab: false, bitbucket: false });
    const [account] = await t.db.select().from(users).where(eq(users.email, 'grace@navy.example'));
    expect(account?.passwordHash).toBeNull();

    // GitHub's email changes; the link (GitHub's own id for the account) still finds the account.
    gitHubFixture.emails = [{ email: 'grace@retired.example', primary: true, verified: true }];
    const again = await callback('github', await authorize('github'));
    expect(again.status).toBe(200);
    expect((await signedInAs(again.body?.access_token as string)).id).toBe(account?.id);
    expect(await findUserId(t.db, 'grace@retired.example')).toBeNull();
    gitHubFixture.emails = [{ email: 'grace@navy.example', primary: true, verified: true }];
  });

  it('links an existing account whose owner verified the same email, which keeps its password', async () => {
    await call(t.app, 'POST', '/api/auth/register', {
      body: { name: 'Ada', email: 'ADA@engine.example', password: 'long enough' },
    });
    await verifyByMail(t.app, t.db, 'ada@engine.example');
    const signedIn = await callback('gitlab', await authorize('gitlab'));
    expect(signedIn.status).toBe(200);
    const me = await signedInAs(signedIn.body?.access_token as string);
    expect(me.id).toBe(await findUserId(t.db, 'ada@engine.example'));
    expect(
      (await call(t.app, 'GET', '/api/auth/me/extended', { token: signedIn.body?.access_token as string })).body,
    ).toMatchObject({ email_verified: true });
    const [identity] = await t.db.select().from(userIdentities).where(eq(userIdentities.userId, me.id));
    expect(identity).toMatchObject({ provider: 'gitlab', externalId: '31', login: 'lovelace' });
    const password = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'ada@engine.example', password: 'long enough' },
    });
    expect(password.status).toBe(200);
  });

  it.each([
    { provider: 'github' as const, user: gitHubFixture, victim: 'victim-gh@acme.example', externalId: 9101 },
    { provider: 'gitlab' as const, user: gitLabFixture, victim: 'victim-gl@acme.example', externalId: 3101 },
    { provider: 'bitbucket' as const, user: bitbucketFixture, victim: 'victim-bb@acme.example', externalId: 4401 },
  ])(
    'never joins an account whose email its registrant did not verify ($provider): that one is retired, with its password and sessions',
    async ({ provider, user, victim, externalId }) => {
      // The attacker registers the victim's address with a password of their own, never verifies it,
      // signs in, and leaves a secret in the account for whoever comes next.
      await call(t.app, 'POST', '/api/auth/register', {
        body: { name: 'Mallory', email: victim, password: 'mallory knows' },
        ip: `mallory-${provider}`,
      });
      const attacker = await call(t.app, 'POST', '/api/auth/login', {
        body: { email: victim, password: 'mallory knows' },
        ip: `mallory-${provider}`,
      });
      const attackerToken = attacker.body?.access_token as string;
      expect(attacker.status).toBe(200);
      const attackerId = (await signedInAs(attackerToken)).id;

      // The victim, whose address it is, signs in through the git host.
      const account = user.user as NonNullable<FakeHostOptions['user']>;
      const saved = { user: { ...account }, emails: user.emails };
      Object.assign(account, { id: externalId, login: `victim-${provider}`, name: 'Victim', email: victim });
      user.emails = [{ email: victim, primary: true, verified: true }];
      try {
        const signedIn = await callback(provider, await authorize(provider));
        expect(signedIn.status).toBe(200);
        const victimToken = signedIn.body?.access_token as string;
        const me = await signedInAs(victimToken);
        expect(me.email).toBe(victim);
        expect(me.id).not.toBe(attackerId);
        expect((await settingsOf(victimToken)).provider_tokens_set[provider]).toBe(true);
      } finally {
        Object.assign(account, saved.user);
        user.emails = saved.emails;
      }
      // Every way the attacker had in is closed: the password, the session.
      expect(
        (
          await call(t.app, 'POST', '/api/auth/login', {
            body: { email: victim, password: 'mallory knows' },
            ip: `mallory-${provider}`,
          })
        ).status,
      ).toBe(401);
      expect((await call(t.app, 'GET', '/api/auth/me/extended', { token: attackerToken })).status).toBe(401);
      // The victim's git token is in the victim's account only.
      const tokens = await t.db.select().from(providerTokens).where(eq(providerTokens.userId, attackerId));
      expect(tokens).toEqual([]);
    },
  );

  it('signs in through Bitbucket with its primary confirmed email, the app authenticated with Basic', async () => {
    const signedIn = await callback('bitbucket', await authorize('bitbucket'));
    expect(signedIn.status).toBe(200);
    expect((await signedInAs(signedIn.body?.access_token as string)).email).toBe('alan@bombe.example');
    expect(bitbucket.requests.find((r) => r.path === '/site/oauth2/access_token')?.authorization).toBe(
      `Basic ${Buffer.from(`${APP.clientId}:${APP.clientSecret}`).toString('base64')}`,
    );
  });

  it('never finds or makes an account through an unverified email', async () => {
    // Another GitLab account, claiming Ada's address without having confirmed it.
    Object.assign(gitLabUser, { id: 32, login: 'babbage', name: 'Charles Babbage' });
    gitLabFixture.emails = [{ email: 'ada@engine.example', primary: true, verified: false }];
    try {
      const refused = await callback('gitlab', await authorize('gitlab'));
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        detail: 'GitLab has no verified email address for babbage. Verify one with GitLab, or sign up with your email.',
      });
      expect(await t.db.select().from(userIdentities).where(eq(userIdentities.externalId, '32'))).toEqual([]);
    } finally {
      Object.assign(gitLabUser, { id: 31, login: 'lovelace', name: 'Ada Lovelace' });
      gitLabFixture.emails = [{ email: 'ada@engine.example', primary: true, verified: true }];
    }
  });

  it('refuses a used or unknown code and wrong app credentials with the host’s reason, and saves nothing', async () => {
    const code = await authorize('github');
    expect((await callback('github', code)).status).toBe(200);
    const reused = await callback('github', code);
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({
      detail:
        'GitHub refused the sign-in (The code passed is incorrect or expired.). Start again from the sign-in dialog.',
    });
    const gitLabRefusal = await callback('gitlab', 'not-a-code');
    expect(gitLabRefusal.status).toBe(400);
    expect(gitLabRefusal.body?.detail).toMatch(
      /^GitLab refused the sign-in \(The provided authorization grant is invalid/,
    );
  });

  it('answers 404 for an unknown identity and 501 for a host without an app here', async () => {
    const unknown = await callback('gitea', 'x');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'There is no sign-in through "gitea".' });
    const unconfigured = await callback('gitlab', 'x', gitHubOnly.app);
    expect(unconfigured.status).toBe(501);
    expect(unconfigured.body).toEqual({ detail: 'Sign-in through GitLab is not set up on this server.' });
    expect((await callback('github', 'x', oss.app)).status).toBe(501);
  });

  it('refuses to link a second account of the same host to one Atelier account', async () => {
    // Another GitHub account whose verified email is Grace's: her account is linked to her own already.
    gitHubUser.id = 9002;
    gitHubUser.login = 'impostor';
    try {
      const refused = await callback('github', await authorize('github'));
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        detail:
          'The Atelier account of grace@navy.example is linked to another GitHub account. Sign in with that one, or with your email and password.',
      });
    } finally {
      gitHubUser.id = 9001;
      gitHubUser.login = 'hopper';
    }
  });
});

describe('tokens of a sign-in through GitLab or Bitbucket, which expire after 2 hours', () => {
  afterEach(() => {
    delete gitLabFixture.oauthLifetime;
    delete bitbucketFixture.oauthLifetime;
  });
  /** Signs in through the host, whose tokens live `lifetime` seconds from now on; the session's token and the user's id. */
  async function signInFor(provider: 'gitlab' | 'bitbucket', fixture: FakeHostOptions, lifetime: number) {
    fixture.oauthLifetime = lifetime;
    const signedIn = await callback(provider, await authorize(provider));
    expect(signedIn.status).toBe(200);
    const session = signedIn.body?.access_token as string;
    const me = (await call(t.app, 'GET', '/api/auth/me/extended', { token: session })).body;
    if (!me?.is_active) await completeOnboarding(t.app, session);
    return { session, userId: me?.id as string };
  }
  const savedRow = async (userId: string, provider: Provider) =>
    (
      await t.db
        .select()
        .from(providerTokens)
        .where(and(eq(providerTokens.userId, userId), eq(providerTokens.provider, provider)))
    )[0];
  const repositories = (provider: Provider, session: string) =>
    call(t.app, 'GET', `/api/user/repositories?selected_provider=${provider}`, { token: session });
  /** The token the host's API was last called with. */
  const lastBearer = (host: typeof gitlab) =>
    host.requests.filter((r) => r.path.startsWith('/api/v4/') || r.path.startsWith('/2.0/')).at(-1)?.authorization;

  it('saves when the token expires and its refresh token, sealed, and uses a token with time left as it is', async () => {
    const before = gitlab.refreshes.granted;
    const { session, userId } = await signInFor('gitlab', gitLabFixture, 7_200);
    const row = await savedRow(userId, 'gitlab');
    expect(row?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 7_000_000);
    expect(row?.refreshToken).toBeTruthy();
    expect(row?.refreshToken).not.toMatch(/^refresh-/);
    expect((await repositories('gitlab', session)).status).toBe(200);
    expect(lastBearer(gitlab)).toBe(`Bearer ${gitLabFixture.token}`);
    expect(gitlab.refreshes.granted).toBe(before);
  });

  it('refreshes a GitLab token that expires within minutes before using it, once for calls made together', async () => {
    const { session, userId } = await signInFor('gitlab', gitLabFixture, 60);
    // The refresh grants a token of GitLab's real lifetime, 2 hours: a token granted for less than the
    // 5 minutes before expiry in which it is refreshed would be refreshed again by every later call.
    gitLabFixture.oauthLifetime = 7_200;
    const before = { ...gitlab.refreshes };
    // Calls made together share the one refresh, as GitLab's refresh tokens are single-use.
    const together = await Promise.all(Array.from({ length: 5 }, () => repositories('gitlab', session)));
    expect(together.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(gitlab.refreshes.granted).toBe(before.granted + 1);
    expect(gitlab.refreshes.refused).toBe(before.refused);
    // The calls went out with the refreshed token; GitLab revoked the one the sign-in gave.
    const refreshed = lastBearer(gitlab);
    expect(refreshed).toMatch(/^Bearer glo_from_oauth-refreshed-/);
    const old = await fetch(`${gitlab.url}/api/v4/user`, {
      headers: { authorization: `Bearer ${gitLabFixture.token}` },
    });
    expect(old.status).toBe(401);
    const row = await savedRow(userId, 'gitlab');
    expect(row?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 7_000_000);
    // The refreshed token has its time left: the next call uses it as it is.
    expect((await repositories('gitlab', session)).status).toBe(200);
    expect(lastBearer(gitlab)).toBe(refreshed);
    expect(gitlab.refreshes.granted).toBe(before.granted + 1);
  });

  it('refreshes a Bitbucket token with the app authenticated by Basic, keeping the reusable refresh token', async () => {
    const { session, userId } = await signInFor('bitbucket', bitbucketFixture, 60);
    const sealed = (await savedRow(userId, 'bitbucket'))?.refreshToken;
    const before = bitbucket.refreshes.granted;
    expect((await repositories('bitbucket', session)).status).toBe(200);
    expect(bitbucket.refreshes.granted).toBe(before + 1);
    expect(lastBearer(bitbucket)).toMatch(/^Bearer bbo_from_oauth-refreshed-/);
    const refresh = bitbucket.requests.filter((r) => r.path === '/site/oauth2/access_token').at(-1);
    expect(refresh?.authorization).toBe(
      `Basic ${Buffer.from(`${APP.clientId}:${APP.clientSecret}`).toString('base64')}`,
    );
    // Saved again (sealed anew), the same refresh token underneath: the next refresh takes it.
    expect((await savedRow(userId, 'bitbucket'))?.refreshToken).not.toBe(sealed);
    expect((await repositories('bitbucket', session)).status).toBe(200);
    expect(bitbucket.refreshes.granted).toBe(before + 2);
    expect(bitbucket.refreshes.refused).toBe(0);
  });

  it('keeps the saved token when the host refuses the refresh, asks no more with it, and a new sign-in mends it', async () => {
    const { session, userId } = await signInFor('gitlab', gitLabFixture, 60);
    const saved = await savedRow(userId, 'gitlab');
    gitlab.revokeRefreshTokens();
    const before = gitlab.refreshes.refused;
    // The sign-in's token still works at the host until it expires: the call is made with it.
    expect((await repositories('gitlab', session)).status).toBe(200);
    expect(gitlab.refreshes.refused).toBe(before + 1);
    expect(lastBearer(gitlab)).toBe(`Bearer ${gitLabFixture.token}`);
    expect((await savedRow(userId, 'gitlab'))?.token).toBe(saved?.token);
    // The refused refresh token is not offered again (a running conversation reads the token every few seconds).
    expect((await repositories('gitlab', session)).status).toBe(200);
    expect(gitlab.refreshes.refused).toBe(before + 1);
    await signInFor('gitlab', gitLabFixture, 7_200);
    expect((await repositories('gitlab', session)).status).toBe(200);
  });

  it('never refreshes a token the user saved in the settings', async () => {
    const { session, userId } = await signInFor('gitlab', gitLabFixture, 60);
    const saved = await call(t.app, 'POST', '/api/settings', {
      token: session,
      body: { provider_tokens: { gitlab: { token: gitLabFixture.token, host: gitlab.url } } },
    });
    expect(saved.status).toBe(200);
    const row = await savedRow(userId, 'gitlab');
    expect(row).toMatchObject({ refreshToken: null, expiresAt: null });
    const before = gitlab.refreshes.granted;
    expect((await repositories('gitlab', session)).status).toBe(200);
    expect(gitlab.refreshes.granted).toBe(before);
  });

  it('reach a running conversation’s shell when refreshed, once, without a restart, and leave it when removed', async () => {
    const { session, userId } = await signInFor('gitlab', gitLabFixture, 7_200);
    await giveCredit(t.db, userId, 1_000_000n, 'git-token-renewal');
    const { conversation_id: id } = await createRunning(t.app, session);
    const runtime = t.app.modules.conversations.manager.session(id);
    if (!runtime) throw new Error('the conversation runs elsewhere');
    // What the credential helper and the agent's API calls read.
    const shellToken = async () => (await runtime.runCommand({ command: 'echo "$GITLAB_TOKEN"' })).output;
    expect(await shellToken()).toBe(gitLabFixture.token);

    // Two hours later, as far as the saved expiry says: the next lease renewal refreshes it.
    const before = gitlab.refreshes.granted;
    await t.db
      .update(providerTokens)
      .set({ expiresAt: new Date(Date.now() + 60_000) })
      .where(and(eq(providerTokens.userId, userId), eq(providerTokens.provider, 'gitlab')));
    const renewed = await waitFor(shellToken, (token) => token !== gitLabFixture.token, 20_000, 'the renewed token');
    expect(renewed).toMatch(/^glo_from_oauth-refreshed-/);
    const user = (token: string) =>
      fetch(`${gitlab.url}/api/v4/user`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    expect(await user(renewed)).toBe(200);
    expect(await user(gitLabFixture.token)).toBe(401);
    // Renewals go on reading the token, which now has 2 hours left: one refresh in all.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(gitlab.refreshes.granted).toBe(before + 1);
    expect(await shellToken()).toBe(renewed);

    // The user removes the token: the runtime loses it too.
    expect((await call(t.app, 'POST', '/api/unset-provider-tokens', { token: session })).status).toBe(200);
    await waitFor(shellToken, (token) => token === '', 20_000, 'the token to be removed');
    await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: session });
  });
});
