import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { providerTokens, userSettings } from '../../db/schema.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import type { GitProvider } from '../../../openapi/types.ts';

export type SettingsRow = typeof userSettings.$inferSelect;
export type { GitProvider };
export const GIT_PROVIDERS: readonly GitProvider[] = ['github', 'gitlab', 'bitbucket'];

/** Settings rows and provider tokens; key columns hold SecretBox ciphertext only. */
export function createSettingsStore(db: Db, box: SecretBox) {
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

    async tokens(userId: string): Promise<{ provider: GitProvider; token: string; host: string | null }[]> {
      const rows = await db.select().from(providerTokens).where(eq(providerTokens.userId, userId));
      return rows.map((r) => ({ provider: r.provider as GitProvider, token: box.decrypt(r.token), host: r.host }));
    },

    async setToken(userId: string, provider: GitProvider, token: string, host: string | null) {
      const values = { token: box.encrypt(token), host, updatedAt: new Date() };
      await db
        .insert(providerTokens)
        .values({ userId, provider, ...values })
        .onConflictDoUpdate({ target: [providerTokens.userId, providerTokens.provider], set: values });
    },

    async removeToken(userId: string, provider?: GitProvider) {
      await db
        .delete(providerTokens)
        .where(and(eq(providerTokens.userId, userId), provider ? eq(providerTokens.provider, provider) : undefined));
    },
  };
}
