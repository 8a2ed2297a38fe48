import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { customSecrets } from '../../db/schema.ts';

type SecretRow = typeof customSecrets.$inferInsert;

/** The custom_secrets table: values stay as encrypted as they are given. */
export function createSecretsStore(db: Db) {
  const mine = (userId: string, name: string) => and(eq(customSecrets.userId, userId), eq(customSecrets.name, name));
  return {
    list: (userId: string) =>
      db
        .select({ name: customSecrets.name, description: customSecrets.description })
        .from(customSecrets)
        .where(eq(customSecrets.userId, userId))
        .orderBy(asc(customSecrets.name)),
    insert: (row: SecretRow) => db.insert(customSecrets).values(row),
    update: (userId: string, name: string, changes: Partial<SecretRow>) =>
      db.update(customSecrets).set(changes).where(mine(userId, name)).returning({ name: customSecrets.name }),
    remove: (userId: string, name: string) =>
      db.delete(customSecrets).where(mine(userId, name)).returning({ name: customSecrets.name }),
    all: (userId: string) => db.select().from(customSecrets).where(eq(customSecrets.userId, userId)),
  };
}
