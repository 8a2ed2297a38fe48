import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { savedLayouts } from '../../db/schema.ts';
import { NotFound, TooLarge, ValidationFailure } from '../../shared/domain-errors.ts';

/** A layout is flexlayout JSON; 256 KiB serialized is far above any real workspace (contract). */
const MAX_LAYOUT_BYTES = 256 * 1024;

function layoutName(raw: string): string {
  const name = raw.trim();
  if (name.length < 1 || name.length > 100)
    throw new ValidationFailure([
      {
        loc: ['path', 'name'],
        msg: 'Layout name must be 1 to 100 characters after trimming spaces',
        type: 'value_error',
      },
    ]);
  return name;
}

const view = (row: Pick<typeof savedLayouts.$inferSelect, 'name' | 'layout' | 'updatedAt'>) => ({
  name: row.name,
  layout: row.layout as Record<string, unknown>,
  updated_at: row.updatedAt.toISOString(),
});

/** The user's saved workspace layouts, by name. */
export function createLayouts(db: Db) {
  // Built once: the workspace reads the list on every open.
  const listed = db
    .select({ name: savedLayouts.name, layout: savedLayouts.layout, updatedAt: savedLayouts.updatedAt })
    .from(savedLayouts)
    .where(eq(savedLayouts.userId, sql.placeholder('userId')))
    .orderBy(asc(savedLayouts.name))
    .prepare('layouts_of_user');
  return {
    async list(userId: string) {
      return (await listed.execute({ userId })).map(view);
    },

    async save(userId: string, rawName: string, layout: Record<string, unknown>) {
      const name = layoutName(rawName);
      if (Buffer.byteLength(JSON.stringify(layout)) > MAX_LAYOUT_BYTES)
        throw new TooLarge('A layout may be at most 256 KiB.');
      const values = { layout, updatedAt: new Date() };
      const [row] = await db
        .insert(savedLayouts)
        .values({ userId, name, ...values })
        .onConflictDoUpdate({ target: [savedLayouts.userId, savedLayouts.name], set: values })
        .returning();
      if (!row) throw new Error('Layout upsert returned no row');
      return view(row);
    },

    async remove(userId: string, rawName: string) {
      const deleted = await db
        .delete(savedLayouts)
        .where(and(eq(savedLayouts.userId, userId), eq(savedLayouts.name, layoutName(rawName))))
        .returning({ name: savedLayouts.name });
      if (deleted.length === 0) throw new NotFound('Layout not found');
    },
  };
}
