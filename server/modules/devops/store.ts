import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { devopsMessages } from '../../db/schema.ts';

export type DevopsMessageRow = typeof devopsMessages.$inferSelect;

/** A conversation's DevOps session: its messages, oldest first, and the model context they carry. */
export function createDevopsStore(db: Db) {
  return {
    history: (conversationId: string) =>
      db
        .select()
        .from(devopsMessages)
        .where(eq(devopsMessages.conversationId, conversationId))
        .orderBy(asc(devopsMessages.seq)),

    async append(entry: {
      conversationId: string;
      userId: string;
      sender: 'user' | 'agent';
      text: string;
      isComplete?: boolean;
      context?: ModelMessage[];
    }): Promise<DevopsMessageRow> {
      const [row] = await db
        .insert(devopsMessages)
        .values({ id: randomUUID(), ...entry, context: entry.context ?? [] })
        .returning();
      return row!;
    },
  };
}

export type DevopsStore = ReturnType<typeof createDevopsStore>;

/** The model messages of the session's finished turns, oldest first. */
export const turnsContext = (rows: readonly DevopsMessageRow[]) => rows.flatMap((row) => row.context as ModelMessage[]);
