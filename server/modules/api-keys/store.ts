import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { apiKeys } from '../../db/schema.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** The api_keys table: a revoked key keeps its row, marked with revoked_at. */
export function createApiKeysStore(db: Db) {
  const active = isNull(apiKeys.revokedAt);
  return {
    async byHash(keyHash: string) {
      const [row] = await db
        .select({ keyId: apiKeys.id, userId: apiKeys.userId })
        .from(apiKeys)
        .where(and(eq(apiKeys.keyHash, keyHash), active));
      return row;
    },
    /** Sets last_used_at to `now` unless it is already later than `unlessAfter`. */
    noteUse: (keyId: string, now: Date, unlessAfter: Date) =>
      db
        .update(apiKeys)
        .set({ lastUsedAt: now })
        .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, unlessAfter)))),
    list: (userId: string) =>
      db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), active))
        .orderBy(desc(apiKeys.createdAt), desc(sql`${apiKeys.id}`)),
    async insert(row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
      const [inserted] = await db.insert(apiKeys).values(row).returning();
      return inserted!;
    },
    revoke: (userId: string, keyId: string) =>
      db
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), active))
        .returning({ id: apiKeys.id }),
  };
}
