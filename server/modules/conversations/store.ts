import { and, desc, eq, inArray, isNull, lt, ne, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { conversations } from '../../db/schema.ts';
import { lockUser } from '../auth/index.ts';

/** The owner already has as many conversations running as they may. */
export class RunningLimitError extends Error {
  constructor(readonly most: number) {
    super(`At most ${most} conversations can run at once. Stop one to start another.`);
  }
}

export type ConversationRow = typeof conversations.$inferSelect;
export type ConversationStatus = 'RUNNING' | 'STARTING' | 'STOPPED';

/** The columns a conversation's card shows (view.ts): lists read only these. */
const shownColumns = {
  id: conversations.id,
  title: conversations.title,
  status: conversations.status,
  runtimeStatus: conversations.runtimeStatus,
  sessionApiKey: conversations.sessionApiKey,
  selectedRepository: conversations.selectedRepository,
  selectedBranch: conversations.selectedBranch,
  gitProvider: conversations.gitProvider,
  trigger: conversations.trigger,
  forkedFromId: conversations.forkedFromId,
  forkedAtEventId: conversations.forkedAtEventId,
  forkedFromTitle: conversations.forkedFromTitle,
  createdAt: conversations.createdAt,
  lastUpdatedAt: conversations.lastUpdatedAt,
};
export type ShownConversation = Pick<ConversationRow, keyof typeof shownColumns>;

/** Keyset cursor over (last_updated_at desc, id desc): stable while pages are read. */
function encodeCursor(row: ShownConversation) {
  return Buffer.from(`${row.lastUpdatedAt.toISOString()}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: Date; id: string } | null {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const date = new Date(at ?? '');
  return id && !Number.isNaN(date.getTime()) ? { at: date, id } : null;
}

/** The titles of those of `ids` that are the user's conversations (a deleted one has none). */
export async function conversationTitles(db: Db, userId: string, ids: string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: conversations.id, title: conversations.title })
    .from(conversations)
    .where(and(eq(conversations.userId, userId), inArray(conversations.id, ids)));
  return new Map(rows.map((row) => [row.id, row.title]));
}

/** Whether the conversation exists and is the user's. */
export async function isUsersConversation(db: Db, userId: string, conversationId: string): Promise<boolean> {
  const [owned] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), eq(conversations.userId, userId)));
  return owned !== undefined;
}

/** Data access for conversation rows; every read that serves a user is scoped to that user. */
export function createConversationStore(db: Db) {
  const pageQuery = (where: SQL | undefined, limit: number | Placeholder) =>
    db
      .select(shownColumns)
      .from(conversations)
      .where(where)
      .orderBy(desc(conversations.lastUpdatedAt), desc(conversations.id))
      .limit(limit);
  // Built once: the first page without filters is what the app reads on every visit.
  const firstPage = pageQuery(eq(conversations.userId, sql.placeholder('userId')), sql.placeholder('limit')).prepare(
    'conversations_first_page',
  );
  return {
    async insert(values: typeof conversations.$inferInsert) {
      const [row] = await db.insert(conversations).values(values).returning();
      return row as ConversationRow;
    },

    async find(id: string): Promise<ConversationRow | null> {
      const [row] = await db.select().from(conversations).where(eq(conversations.id, id));
      return row ?? null;
    },

    /** The user's conversation, or null (also when it belongs to someone else). */
    async findOwned(userId: string, id: string): Promise<ConversationRow | null> {
      const [row] = await db
        .select()
        .from(conversations)
        .where(and(eq(conversations.id, id), eq(conversations.userId, userId)));
      return row ?? null;
    },

    async list(
      userId: string,
      options: {
        limit: number;
        cursor?: string | undefined;
        repository?: string | undefined;
        trigger?: string | undefined;
        forkedFrom?: string | undefined;
      },
    ) {
      const after = options.cursor ? decodeCursor(options.cursor) : null;
      const where: (SQL | undefined)[] = [eq(conversations.userId, userId)];
      if (options.repository) where.push(eq(conversations.selectedRepository, options.repository));
      if (options.trigger) where.push(eq(conversations.trigger, options.trigger));
      if (options.forkedFrom) where.push(eq(conversations.forkedFromId, options.forkedFrom));
      if (after)
        where.push(
          or(
            lt(conversations.lastUpdatedAt, after.at),
            and(eq(conversations.lastUpdatedAt, after.at), lt(conversations.id, after.id)),
          ),
        );
      const rows =
        where.length === 1
          ? await firstPage.execute({ userId, limit: options.limit + 1 })
          : await pageQuery(and(...where), options.limit + 1);
      const page = rows.slice(0, options.limit);
      const last = page[page.length - 1];
      return { rows: page, next: rows.length > options.limit && last ? encodeCursor(last) : null };
    },

    async update(id: string, values: Partial<typeof conversations.$inferInsert>) {
      const [row] = await db
        .update(conversations)
        .set({ ...values, lastUpdatedAt: new Date() })
        .where(eq(conversations.id, id))
        .returning();
      return row ?? null;
    },

    /** What serves the app ports now; the conversation's last update stays (nothing the user did). */
    async rememberServedApps(id: string, apps: (typeof conversations.$inferSelect)['servedApps']) {
      await db.update(conversations).set({ servedApps: apps }).where(eq(conversations.id, id));
    },

    async remove(id: string) {
      await db.delete(conversations).where(eq(conversations.id, id));
    },

    /** Conversations of the user that hold a runtime somewhere (for the running limit). */
    async countRunning(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(conversations)
        .where(and(eq(conversations.userId, userId), ne(conversations.status, 'STOPPED')));
      return row?.n ?? 0;
    },

    /**
     * Claims the conversation for `node` unless another node holds a live lease on it;
     * returns the row when claimed. The condition and the write are one statement, so two
     * nodes starting the same conversation cannot both win. With `runningLimit`, the claim is
     * refused (RunningLimitError) when its owner has that many other conversations running:
     * the owner's row is locked while counting, so concurrent starts cannot pass the limit together.
     */
    async claim(
      id: string,
      node: string,
      leaseMs: number,
      values: Partial<typeof conversations.$inferInsert>,
      runningLimit?: { userId: string; most: number },
    ): Promise<ConversationRow | null> {
      return db.transaction(async (tx) => {
        if (runningLimit) {
          await lockUser(tx, runningLimit.userId);
          const [others] = await tx
            .select({ n: sql<number>`count(*)::int` })
            .from(conversations)
            .where(
              and(
                eq(conversations.userId, runningLimit.userId),
                ne(conversations.status, 'STOPPED'),
                ne(conversations.id, id),
              ),
            );
          if ((others?.n ?? 0) >= runningLimit.most) throw new RunningLimitError(runningLimit.most);
        }
        const now = new Date();
        const [row] = await tx
          .update(conversations)
          .set({ ...values, ownerNode: node, leaseExpiresAt: new Date(now.getTime() + leaseMs), lastUpdatedAt: now })
          .where(
            and(
              eq(conversations.id, id),
              or(
                eq(conversations.status, 'STOPPED'),
                isNull(conversations.ownerNode),
                eq(conversations.ownerNode, node),
                lt(conversations.leaseExpiresAt, now),
              ),
            ),
          )
          .returning();
        return row ?? null;
      });
    },

    /** Extends this node's leases; answers the ids it still holds (others were stopped or deleted elsewhere). */
    async renewLeases(node: string, ids: string[], leaseMs: number): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .update(conversations)
        .set({ leaseExpiresAt: new Date(Date.now() + leaseMs) })
        .where(
          and(inArray(conversations.id, ids), eq(conversations.ownerNode, node), ne(conversations.status, 'STOPPED')),
        )
        .returning({ id: conversations.id });
      return rows.map((r) => r.id);
    },

    /** Conversations whose owner (another node) stopped renewing its lease: that node is gone, and its processes with it. */
    async stopExpired(node: string) {
      return db
        .update(conversations)
        .set({
          status: 'STOPPED',
          runtimeStatus: 'STATUS$STOPPED',
          sessionApiKey: null,
          ownerNode: null,
          ownerUrl: null,
          leaseExpiresAt: null,
        })
        .where(
          and(
            ne(conversations.status, 'STOPPED'),
            ne(conversations.ownerNode, node),
            lt(conversations.leaseExpiresAt, new Date()),
          ),
        )
        .returning({ id: conversations.id });
    },

    /**
     * At start-up: conversations this node left running (or whose owner's lease ran out)
     * cannot be running any more, since their processes died with the old process.
     */
    async stopOrphans(node: string, everyone: boolean) {
      const now = new Date();
      const orphaned = everyone
        ? undefined
        : or(eq(conversations.ownerNode, node), isNull(conversations.ownerNode), lt(conversations.leaseExpiresAt, now));
      return db
        .update(conversations)
        .set({
          status: 'STOPPED',
          runtimeStatus: 'STATUS$STOPPED',
          sessionApiKey: null,
          ownerNode: null,
          ownerUrl: null,
          leaseExpiresAt: null,
        })
        .where(and(ne(conversations.status, 'STOPPED'), orphaned))
        .returning({ id: conversations.id });
    },
  };
}

export type ConversationStore = ReturnType<typeof createConversationStore>;
