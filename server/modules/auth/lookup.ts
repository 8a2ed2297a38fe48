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
