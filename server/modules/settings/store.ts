import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { providerTokens, userSettings } from '../../db/schema.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import type { GitProvider } from '../../../openapi/types.ts';

export type SettingsRow = typeof userSettings.$inferSelect;
export type { GitProvider };
export const GIT_PROVIDERS: readonly GitProvider[] = ['github', 'gitlab', 'bitbucket'];

/** When a token granted by a sign-in expires, and the token that trades for the next one. */
export interface TokenGrant {
  refreshToken: string | null;
  expiresAt: Date | null;
}

export interface StoredProviderToken {
  provider: GitProvider;
  token: string;
  host: string | null;
  /** A sign-in's refresh token, `sealed` as stored (what a replacement compares), and when the token expires. */
  refresh: { token: string; sealed: string; expiresAt: Date | null } | null;
}

/** Settings rows and provider tokens; key columns hold SecretBox ciphertext only. */
/** The language the user chose for the interface, null until they choose one. */
export async function userLanguage(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ language: userSettings.language })
    .from(userSettings)
    .where(eq(userSettings.userId, userId));
  return row?.language ?? null;
}

export function createSettingsStore(db: Db, box: SecretBox) {
  /** A token's columns as stored: sealed, with its grant's refresh token (sealed) and expiry, none for a saved token. */
  const sealedToken = (token: string, grant: TokenGrant | undefined) => ({
    token: box.encrypt(token),
    refreshToken: grant?.refreshToken ? box.encrypt(grant.refreshToken) : null,
    expiresAt: grant?.expiresAt ?? null,
    updatedAt: new Date(),
  });
  return {
    async find(userId: string): Promise<SettingsRow | null> {
      const [row] = await db.select().from(userSettings).where(eq(userSettings.userId, userId));
      return row ?? null;
    },

    /** Creates the row with the defaults on first save; only the given columns change. */
    async save(userId: string, values: Partial<Omit<SettingsRow, 'userId' | 'updatedAt'>>) {
      const changes = { ...values, updatedAt: new Date() };
      await db
        .insert(userSettings)
        .values({ userId, ...changes })
        .onConflictDoUpdate({ target: userSettings.userId, set: changes });
    },

    async tokens(userId: string): Promise<StoredProviderToken[]> {
      const rows = await db.select().from(providerTokens).where(eq(providerTokens.userId, userId));
      return rows.map((r) => ({
        provider: r.provider as GitProvider,
        token: box.decrypt(r.token),
        host: r.host,
        refresh: r.refreshToken
          ? { token: box.decrypt(r.refreshToken), sealed: r.refreshToken, expiresAt: r.expiresAt }
          : null,
      }));
    },

    /** Saves a provider's token; a sign-in's grant also gives when it expires and its refresh token. */
    async setToken(userId: string, provider: GitProvider, token: string, host: string | null, grant?: TokenGrant) {
      const values = { ...sealedToken(token, grant), host };
      await db
        .insert(providerTokens)
        .values({ userId, provider, ...values })
        .onConflictDoUpdate({ target: [providerTokens.userId, providerTokens.provider], set: values });
    },

    /**
     * Replaces a refreshed token and its refresh token, only while the row still holds the refresh
     * token that was traded (`sealed`, as stored): false when another refresh or a save came first.
     */
    async replaceRefreshed(userId: string, provider: GitProvider, sealed: string, token: string, grant: TokenGrant) {
      const replaced = await db
        .update(providerTokens)
        .set(sealedToken(token, grant))
        .where(
          and(
            eq(providerTokens.userId, userId),
            eq(providerTokens.provider, provider),
            eq(providerTokens.refreshToken, sealed),
          ),
        )
        .returning({ provider: providerTokens.provider });
      return replaced.length > 0;
    },

    async removeToken(userId: string, provider?: GitProvider) {
      await db
        .delete(providerTokens)
        .where(and(eq(providerTokens.userId, userId), provider ? eq(providerTokens.provider, provider) : undefined));
    },
  };
}
