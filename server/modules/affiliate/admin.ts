import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { affiliates } from '../../db/schema.ts';

/** Affiliates for the operator, oldest first; only those waiting for review with `pending`. */
export async function listAffiliates(db: Db, options: { pending: boolean }) {
  const rows = await db
    .select({
      email: affiliates.email,
      fullName: affiliates.fullName,
      status: affiliates.status,
      whatsapp: affiliates.whatsapp,
      website: affiliates.website,
      createdAt: affiliates.createdAt,
    })
    .from(affiliates)
    .where(options.pending ? eq(affiliates.status, 'pending') : undefined)
    .orderBy(asc(affiliates.createdAt));
  return rows;
}

/** Verifies or rejects the affiliate with `email`; false when there is none. */
export async function setAffiliateStatus(db: Db, email: string, status: 'verified' | 'rejected') {
  const changed = await db
    .update(affiliates)
    .set({ status })
    .where(sql`lower(${affiliates.email}) = ${email.trim().toLowerCase()}`)
    .returning({ id: affiliates.id });
  return changed.length > 0;
}
