import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { onboardingChatFiles, onboardingChats } from '../../db/schema.ts';
import { Conflict, NotFound } from '../../shared/domain-errors.ts';
import { RateLimiter, throttle } from '../rate-limits/index.ts';

/** An unclaimed session ends a day after it started. */
export const CHAT_LIFETIME_MS = 24 * 3600_000;
/**
 * Retention: an unclaimed session is deleted (its messages and files with it) once it has
 * ended; a claimed one's files, waiting for the account to finish onboarding, are deleted a
 * week after the session started. What a chat became (a conversation) is the account's.
 */
export const CLAIMED_FILES_RETENTION_MS = 7 * 24 * 3600_000;

export interface ChatOnboardingDeps {
  /** The sign-up limit: a visitor opens at most this many sessions per window. */
  rateLimit: { perIp: number; windowMs: number };
  newToken: () => string;
  hashToken: (token: string) => string;
  now?: () => Date;
}

/** The chat-only onboarding's sessions: opened anonymously with a token, then claimed by an account. */
export function createChatOnboardingService(db: Db, deps: ChatOnboardingDeps) {
  const now = deps.now ?? (() => new Date());
  const opened = new RateLimiter(db, {
    name: 'onboarding-chat',
    limit: deps.rateLimit.perIp,
    windowMs: deps.rateLimit.windowMs,
  });

  return {
    async create(ip: string) {
      await throttle([opened], [ip], 'onboarding chat');
      const token = deps.newToken();
      const [row] = await db
        .insert(onboardingChats)
        .values({
          id: randomUUID(),
          tokenHash: deps.hashToken(token),
          expiresAt: new Date(now().getTime() + CHAT_LIFETIME_MS),
        })
        .returning();
      return { chat_id: row!.id, chat_token: token, expires_at: row!.expiresAt.toISOString() };
    },

    /** The session the token opens, while it lives; null otherwise. */
    async open(chatId: string, token: string) {
      const [row] = await db.select().from(onboardingChats).where(eq(onboardingChats.id, chatId));
      if (!row || row.tokenHash !== deps.hashToken(token)) return null;
      return row.userId !== null || row.expiresAt > now() ? row : null;
    },

    /** Deletes what retention says is over (see above); safe on every node at once. Answers what went. */
    async sweep() {
      const at = now();
      const chats = await db
        .delete(onboardingChats)
        .where(and(isNull(onboardingChats.userId), lt(onboardingChats.expiresAt, at)))
        .returning({ id: onboardingChats.id });
      const stale = db
        .select({ id: onboardingChats.id })
        .from(onboardingChats)
        .where(lt(onboardingChats.createdAt, new Date(at.getTime() - CLAIMED_FILES_RETENTION_MS)));
      const files = await db
        .delete(onboardingChatFiles)
        .where(inArray(onboardingChatFiles.chatId, stale))
        .returning({ chatId: onboardingChatFiles.chatId });
      return { chats: chats.length, files: files.length };
    },

    async claim(userId: string, chatId: string, token: string) {
      const row = await this.open(chatId, token);
      if (!row) throw new NotFound('Onboarding chat not found');
      const [claimed] = await db
        .update(onboardingChats)
        .set({ userId })
        .where(
          and(eq(onboardingChats.id, chatId), or(isNull(onboardingChats.userId), eq(onboardingChats.userId, userId))),
        )
        .returning();
      if (!claimed) throw new Conflict('This onboarding chat belongs to another account.');
      return { chat_id: chatId, user_id: userId };
    },
  };
}

export type ChatOnboardingService = ReturnType<typeof createChatOnboardingService>;
