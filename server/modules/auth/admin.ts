import { desc, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { users } from '../../db/schema.ts';

/** Staff operations the spec leaves to the operator (`npm run admin`). */
export async function listUsers(db: Db) {
  return db
    .select({
      id: users.id,
      email: users.email,
      fullname: users.fullname,
      isActive: users.isActive,
      isPersonal: users.isPersonal,
      createdAt: users.createdAt,
    })
    .from(users)
    .orderBy(desc(users.createdAt));
}

/** Returns the user's id, or null when no account has that email. */
export async function setUserActive(db: Db, email: string, active: boolean): Promise<string | null> {
  const [row] = await db
    .update(users)
    .set({ isActive: active, updatedAt: new Date() })
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .returning({ id: users.id });
  return row?.id ?? null;
}

export async function findUserId(db: Db, email: string): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  return row?.id ?? null;
}
