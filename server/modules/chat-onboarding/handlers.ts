import { NotFound } from '../../shared/domain-errors.ts';
import { requireUser, type Handlers } from '../../shared/operations.ts';
import { receiveUpload } from '../conversations/index.ts';
import type { ChatFiles } from './files.ts';
import type { ChatOnboardingService } from './service.ts';

/** `dataDir`: where uploads are spooled while they arrive. */
export function chatOnboardingHandlers(chats: ChatOnboardingService, files: ChatFiles, dataDir: string): Handlers {
  return {
    createOnboardingChat: async (ctx) => chats.create(ctx.ip),
    claimOnboardingChat: async (ctx) => chats.claim(requireUser(ctx).id, ctx.params.chat_id, ctx.body.chat_token),
    uploadOnboardingChatFiles: async (ctx) => {
      // The edge let the call through with an X-Chat-Token; it must open this chat.
      const opened = await chats.open(ctx.params.chat_id, String(ctx.headers['x-chat-token']));
      if (!opened) throw new NotFound('Onboarding chat not found');
      return receiveUpload(ctx.parts, dataDir, (form) => files.store(opened.id, form));
    },
  };
}
