import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { conversationInbox } from '../../db/schema.ts';
import type { ClientAction } from '../../../openapi/types.ts';

/** Client actions on their way to the node that runs the conversation (see the table's comment). */
export function createInbox(db: Db) {
  return {
    async push(conversationId: string, action: ClientAction) {
      await db.insert(conversationInbox).values({ conversationId, action });
    },

    /** Takes every waiting action, oldest first; each one is taken exactly once, whoever else asks. */
    async take(conversationId: string): Promise<ClientAction[]> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .select()
          .from(conversationInbox)
          .where(eq(conversationInbox.conversationId, conversationId))
          .orderBy(asc(conversationInbox.id))
          .for('update', { skipLocked: true });
        if (rows.length)
          await tx.delete(conversationInbox).where(
            inArray(
              conversationInbox.id,
              rows.map((r) => r.id),
            ),
          );
        return rows.map((r) => r.action as ClientAction);
      });
    },

    async clear(conversationId: string) {
      await db.delete(conversationInbox).where(eq(conversationInbox.conversationId, conversationId));
    },
  };
}

export type Inbox = ReturnType<typeof createInbox>;
