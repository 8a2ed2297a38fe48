import { readFile } from 'node:fs/promises';
import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { onboardingChatFiles, onboardingChats } from '../../db/schema.ts';
import { TooLarge } from '../../shared/domain-errors.ts';
import type { UploadForm } from '../conversations/index.ts';

// A visitor's files wait in the database, so this bounds what an anonymous chat may keep.
export const CHAT_FILES_LIMIT_BYTES = 50 * 1024 * 1024;
export const CHAT_FILES_LIMIT_COUNT = 1000;

/** The project files of onboarding chats: kept until the chat upgrades, then handed to the workspace. */
export function createChatFiles(db: Db) {
  const paths = async (chatId: string) =>
    (
      await db
        .select({ path: onboardingChatFiles.path })
        .from(onboardingChatFiles)
        .where(eq(onboardingChatFiles.chatId, chatId))
        .orderBy(asc(onboardingChatFiles.path))
    ).map((row) => row.path);

  return {
    paths,

    /** Keeps the form's files with the chat (a name again replaces the file); answers every file it holds. */
    async store(chatId: string, form: UploadForm) {
      const names = form.files.map((file) => file.name);
      await db.transaction(async (tx) => {
        // Serialises uploads to one chat, so two at once cannot pass the limits together.
        await tx
          .select({ id: onboardingChats.id })
          .from(onboardingChats)
          .where(eq(onboardingChats.id, chatId))
          .for('update');
        const contents = await Promise.all(form.files.map((file) => readFile(file.spooled)));
        const incoming = new Map(names.map((name, i) => [name, contents[i]!]));
        const [kept] = await tx
          .select({ bytes: sql<string>`coalesce(sum(${onboardingChatFiles.size}), 0)`, count: sql<number>`count(*)` })
          .from(onboardingChatFiles)
          .where(
            and(
              eq(onboardingChatFiles.chatId, chatId),
              ...(incoming.size ? [notInArray(onboardingChatFiles.path, [...incoming.keys()])] : []),
            ),
          );
        const bytes = Number(kept!.bytes) + [...incoming.values()].reduce((sum, content) => sum + content.length, 0);
        if (bytes > CHAT_FILES_LIMIT_BYTES)
          throw new TooLarge(
            'The files would be over 50 MB, the limit of an onboarding chat. Please upload fewer or smaller files.',
          );
        if (Number(kept!.count) + incoming.size > CHAT_FILES_LIMIT_COUNT)
          throw new TooLarge('An onboarding chat holds at most 1,000 files. Please upload an archive instead.');
        for (const [path, content] of incoming)
          await tx
            .insert(onboardingChatFiles)
            .values({ chatId, path, content, size: content.length })
            .onConflictDoUpdate({
              target: [onboardingChatFiles.chatId, onboardingChatFiles.path],
              set: { content, size: content.length, createdAt: new Date() },
            });
      });
      return { uploaded_files: await paths(chatId), skipped_files: form.skipped };
    },

    /** The chat's files with their contents, for the new workspace. */
    async contents(chatId: string) {
      return db
        .select({ path: onboardingChatFiles.path, content: onboardingChatFiles.content })
        .from(onboardingChatFiles)
        .where(eq(onboardingChatFiles.chatId, chatId))
        .orderBy(asc(onboardingChatFiles.path));
    },

    async remove(chatId: string) {
      await db.delete(onboardingChatFiles).where(eq(onboardingChatFiles.chatId, chatId));
    },
  };
}

export type ChatFiles = ReturnType<typeof createChatFiles>;
