import type { Config } from '../../config.ts';
import { isUniqueViolation, type Db } from '../../db/index.ts';
import { Conflict, InvalidInput, NotFound, NotSetUp } from '../../shared/domain-errors.ts';
import type { AuthService } from '../auth/index.ts';
import { gitHost, PROVIDER_NAMES, type GitHost, type GitProvider } from '../git/index.ts';
import type { RefreshToken, SettingsService } from '../settings/index.ts';
import { authorizeUrl, exchangeCode, refreshGrant } from './oauth.ts';
import { createIdentityStore } from './store.ts';

export interface IdentityDeps {
  auth: Pick<AuthService, 'accountForVerifiedEmail' | 'startSession'>;
  settings: Pick<SettingsService, 'saveProviderToken'>;
  hosts?: (provider: GitProvider, token: string, host: string | null) => GitHost;
}

const isProvider = (identity: string): identity is GitProvider => Object.hasOwn(PROVIDER_NAMES, identity);

/** Sign-in through a git host whose OAuth app the operator configured (saas mode only). */
export function createIdentityService(db: Db, config: Config, { auth, settings, hosts = gitHost }: IdentityDeps) {
  const store = createIdentityStore(db);
  const appOf = (provider: GitProvider) => (config.appMode === 'saas' ? config.oauthApps[provider] : null);

  /** The Atelier account of the host's account: by its link, else by its verified email, linked now. */
  async function accountOf(provider: GitProvider, host: GitHost, affiliateCode: string | null | undefined) {
    const name = PROVIDER_NAMES[provider];
    const account = await host.user();
    const linked = () => store.linkedUser(provider, account.id);
    const known = await linked();
    if (known) return known;
    const email = await host.verifiedEmail();
    if (!email)
      throw new InvalidInput(
        `${name} has no verified email address for ${account.login}. Verify one with ${name}, or sign up with your email.`,
      );
    const userId = await auth.accountForVerifiedEmail({
      email,
      name: account.name?.trim() || account.login,
      affiliateCode,
    });
    try {
      await store.link({ provider, externalId: account.id, userId, login: account.login });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new Conflict(
        `The Atelier account of ${email} is linked to another ${name} account. Sign in with that one, or with your email and password.`,
      );
    }
    // Two first sign-ins of one account racing: the link written first stands.
    return (await linked()) ?? userId;
  }

  return {
    /** The providers the sign-in dialog offers, with their authorization pages. */
    signInProviders: () =>
      (Object.keys(PROVIDER_NAMES) as GitProvider[]).flatMap((identity) => {
        const app = appOf(identity);
        return app ? [{ identity, authorize_url: authorizeUrl(identity, app, config.publicUrl) }] : [];
      }),

    async signIn(identity: string, input: { code: string; affiliate_code?: string | null | undefined }) {
      if (!isProvider(identity)) throw new NotFound(`There is no sign-in through "${identity}".`);
      const app = appOf(identity);
      if (!app) throw new NotSetUp(`Sign-in through ${PROVIDER_NAMES[identity]} is not set up on this server.`);
      const grant = await exchangeCode(identity, app, config.publicUrl, input.code);
      const userId = await accountOf(identity, hosts(identity, grant.token, app.host), input.affiliate_code);
      await settings.saveProviderToken(userId, identity, grant.token, app.host, grant);
      return auth.startSession(userId, true);
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;

/** Trades a sign-in's refresh token through the provider's app, where sign-in apps are configured (saas). */
export function signInTokenRefresh(config: Config): RefreshToken | null {
  if (config.appMode !== 'saas') return null;
  return async (provider, refreshToken) => {
    const app = config.oauthApps[provider];
    return app ? refreshGrant(provider, app, config.publicUrl, refreshToken) : null;
  };
}
