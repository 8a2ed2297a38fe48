import { eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { users } from '../../db/schema.ts';

/** What other modules may know about an account: identity, state and email verification. */
export async function findUser(db: Db, id: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      fullname: users.fullname,
      isActive: users.isActive,
      isPersonal: users.isPersonal,
      signedAgreement: users.signedAgreement,
      emailVerified: users.emailVerified,
    })
    .from(users)
    .where(eq(users.id, id));
  return row ?? null;
}

/** Locks the account's row until the caller's transaction ends: its changes to the account's data happen one at a time. */
export async function lockUser(tx: Db, id: string) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
}

/** Lets the account in (onboarding complete), in the caller's transaction. */
export async function activateUser(tx: Db, id: string, at: Date) {
  await tx.update(users).set({ isActive: true, updatedAt: at }).where(eq(users.id, id));
}

/**
 * The accounts as a subquery of the caller's statement, with the referral code each registered
 * with: for figures that must be read in one statement with the caller's own tables.
 */
export function accountsWithReferral(db: Db) {
  return db
    .select({
      id: users.id,
      fullname: users.fullname,
      email: users.email,
      createdAt: users.createdAt,
      affiliateCode: users.affiliateCode,
    })
    .from(users)
    .as('account');
}
