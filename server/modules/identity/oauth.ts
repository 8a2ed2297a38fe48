import type { Config } from '../../config.ts';
import { InvalidInput, Unavailable } from '../../shared/domain-errors.ts';
import { PROVIDER_NAMES, unreachable, type GitProvider } from '../git/index.ts';

// The OAuth 2 authorization-code flow of each git host, at its web origin (its API is elsewhere):
// the page that asks the user, and the endpoint that turns the returned code into a token.

export type OAuthApp = NonNullable<Config['oauthApps'][GitProvider]>;

const FLOWS: Record<GitProvider, { origin: string; authorize: string; token: string; scope: string | null }> = {
  github: {
    origin: 'https://github.com',
    authorize: '/login/oauth/authorize',
    token: '/login/oauth/access_token',
    scope: 'repo read:user user:email',
  },
  gitlab: {
    origin: 'https://gitlab.com',
    authorize: '/oauth/authorize',
    token: '/oauth/token',
    scope: 'api read_user',
  },
  // Bitbucket's scopes are the consumer's settings, not the request's.
  bitbucket: {
    origin: 'https://bitbucket.org',
    authorize: '/site/oauth2/authorize',
    token: '/site/oauth2/access_token',
    scope: null,
  },
};

/** Where the provider sends the user back: the browser's route, which posts the code to identityCallback. */
export const callbackUrl = (publicUrl: string, provider: GitProvider) => `${publicUrl}/oauth/${provider}/callback`;

/** The provider's authorization page for this server's app; the browser adds its own `state`. */
export function authorizeUrl(provider: GitProvider, app: OAuthApp, publicUrl: string): string {
  const flow = FLOWS[provider];
  const url = new URL(`${app.host ?? flow.origin}${flow.authorize}`);
  url.searchParams.set('client_id', app.clientId);
  url.searchParams.set('redirect_uri', callbackUrl(publicUrl, provider));
  url.searchParams.set('response_type', 'code');
  if (flow.scope) url.searchParams.set('scope', flow.scope);
  return url.href;
}

/** What a token endpoint grants: the access token and, from GitLab and Bitbucket, when it expires and its refresh token. */
export interface OAuthGrant {
  token: string;
  refreshToken: string | null;
  expiresAt: Date | null;
}

/** Both hosts document 2-hour access tokens; a grant that gives a refresh token but no lifetime is taken to last that long. */
const DEFAULT_LIFETIME_S = 7_200;

/** A POST to the provider's token endpoint with the app's credentials: the grant, or the provider's reason when it refused. */
async function tokenRequest(
  provider: GitProvider,
  app: OAuthApp,
  form: URLSearchParams,
  what: 'the sign-in' | 'the token refresh',
): Promise<{ grant: OAuthGrant } | { refused: string }> {
  const flow = FLOWS[provider];
  // Bitbucket takes the client's credentials as Basic authentication only; the others in the form.
  const basic = provider === 'bitbucket';
  if (!basic) {
    form.set('client_id', app.clientId);
    form.set('client_secret', app.clientSecret);
  }
  let response: Response;
  try {
    response = await fetch(`${app.host ?? flow.origin}${flow.token}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'Atelier',
        ...(basic && {
          authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
        }),
      },
      body: form,
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw unreachable(provider, error);
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.ok && typeof body.access_token === 'string' && body.access_token) {
    const refreshToken = typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : null;
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : refreshToken ? DEFAULT_LIFETIME_S : null;
    return {
      grant: {
        token: body.access_token,
        refreshToken,
        expiresAt: lifetime === null ? null : new Date(Date.now() + lifetime * 1000),
      },
    };
  }
  if (response.status >= 500)
    throw new Unavailable(`${PROVIDER_NAMES[provider]} answered ${response.status} to ${what}; try again later.`);
  // GitHub refuses a code with 200 and an `error`; GitLab and Bitbucket with 400 or 401.
  const reason = [body.error_description, body.error].find((v) => typeof v === 'string') ?? `status ${response.status}`;
  return { refused: String(reason) };
}

/** The grant for an authorization code; a refused code is a 400 naming the provider and its reason. */
export async function exchangeCode(
  provider: GitProvider,
  app: OAuthApp,
  publicUrl: string,
  code: string,
): Promise<OAuthGrant> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: callbackUrl(publicUrl, provider),
  });
  const answer = await tokenRequest(provider, app, form, 'the sign-in');
  if ('grant' in answer) return answer.grant;
  throw new InvalidInput(
    `${PROVIDER_NAMES[provider]} refused the sign-in (${answer.refused}). Start again from the sign-in dialog.`,
  );
}

/**
 * The next grant for a refresh token; null when the provider refused it (revoked, or used once
 * already: GitLab's refresh tokens are single-use and invalidate the access token they came with).
 */
export async function refreshGrant(
  provider: GitProvider,
  app: OAuthApp,
  publicUrl: string,
  refreshToken: string,
): Promise<OAuthGrant | null> {
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
  // GitLab asks for the redirect URI of the original grant.
  if (provider === 'gitlab') form.set('redirect_uri', callbackUrl(publicUrl, provider));
  const answer = await tokenRequest(provider, app, form, 'the token refresh');
  return 'grant' in answer ? answer.grant : null;
}
