import { setTimeout as sleep } from 'node:timers/promises';
import type { createSettingsStore, GitProvider, StoredProviderToken, TokenGrant } from './store.ts';

/** Trades a refresh token at its provider: the next token and its grant, or null when the provider refused. */
export type RefreshToken = (
  provider: GitProvider,
  refreshToken: string,
) => Promise<({ token: string } & TokenGrant) | null>;

/** A token is refreshed this long before it expires, so that a call or a runtime started with it has it a while. */
export const REFRESH_BEFORE_MS = 5 * 60_000;
/** After a refused refresh, how long another node's refresh of the same token may take to be saved. */
const SETTLE_MS = 1_000;
/** How long a refresh's outcome answers calls that read the token it traded (a read that was under way meanwhile). */
const TRADED_MEMORY_MS = 10_000;

type Store = Pick<ReturnType<typeof createSettingsStore>, 'tokens' | 'replaceRefreshed'>;
type Refreshable = StoredProviderToken & { refresh: NonNullable<StoredProviderToken['refresh']> };

/**
 * Keeps sign-in tokens usable: GitLab's and Bitbucket's expire after 2 hours. Calls that read the
 * same refresh token share one refresh (GitLab's refresh tokens are single-use); a refresh is saved
 * only over the refresh token it traded, so when another node refreshed first, its token is used.
 */
export function createTokenRefresh(store: Store, refresh: RefreshToken | null) {
  /** Refreshes under way, or done within TRADED_MEMORY_MS, by the refresh token they trade. */
  const refreshes = new Map<string, Promise<string>>();
  /**
   * Refresh tokens the provider refused for good (sealed, as stored): not offered again, so that
   * reads (a running conversation's every lease renewal among them) do not ask the provider each
   * time until the user signs in again. Refusals are rare (access revoked), so the set stays small.
   */
  const refused = new Set<string>();

  async function renew(trade: RefreshToken, userId: string, stored: Refreshable): Promise<string> {
    let grant: Awaited<ReturnType<RefreshToken>>;
    try {
      grant = await trade(stored.provider, stored.refresh.token);
    } catch {
      // The provider is unreachable or failing: the token saved is tried as it is.
      return stored.token;
    }
    // A provider that answers no new refresh token keeps the one it took.
    const next = grant && { ...grant, refreshToken: grant.refreshToken ?? stored.refresh.token };
    if (next && (await store.replaceRefreshed(userId, stored.provider, stored.refresh.sealed, next.token, next)))
      return next.token;
    // Refused, or saved over meanwhile: what is saved now, once another node's refresh had time to be saved.
    for (let attempt = 0; ; attempt++) {
      const now = (await store.tokens(userId)).find((t) => t.provider === stored.provider);
      if (!now || now.refresh?.sealed !== stored.refresh.sealed) return now?.token ?? stored.token;
      if (attempt === 1) {
        // Nobody saved another: the provider refused this refresh token.
        refused.add(stored.refresh.sealed);
        return now.token;
      }
      await sleep(SETTLE_MS);
    }
  }

  function tokenOf(userId: string, stored: StoredProviderToken): Promise<string> | string {
    const { refresh: held } = stored;
    if (!refresh || !held?.expiresAt || held.expiresAt.getTime() - Date.now() > REFRESH_BEFORE_MS) return stored.token;
    if (refused.has(held.sealed)) return stored.token;
    const key = `${userId}\n${stored.provider}\n${held.sealed}`;
    let renewing = refreshes.get(key);
    if (!renewing) {
      renewing = renew(refresh, userId, { ...stored, refresh: held }).finally(() =>
        setTimeout(() => refreshes.delete(key), TRADED_MEMORY_MS).unref(),
      );
      refreshes.set(key, renewing);
    }
    return renewing;
  }

  return {
    /** The tokens as given to git calls and runtimes: each refreshed first when it expires soon and can be. */
    usable: (userId: string, tokens: StoredProviderToken[]) =>
      Promise.all(tokens.map(async (t) => ({ provider: t.provider, token: await tokenOf(userId, t), host: t.host }))),
  };
}
