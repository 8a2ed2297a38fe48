import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { userIdentities } from '../../db/schema.ts';

/** The user_identities table: which Atelier account a git host's account signs in to. */
export function createIdentityStore(db: Db) {
  return {
    linkedUser: (provider: string, externalId: string) =>
      db
        .select({ userId: userIdentities.userId })
        .from(userIdentities)
        .where(and(eq(userIdentities.provider, provider), eq(userIdentities.externalId, externalId)))
        .then(([row]) => row?.userId),
    /** A link already written for this host account stays as it is. */
    link: (row: typeof userIdentities.$inferInsert) =>
      db
        .insert(userIdentities)
        .values(row)
        .onConflictDoNothing({ target: [userIdentities.provider, userIdentities.externalId] }),
  };
}
