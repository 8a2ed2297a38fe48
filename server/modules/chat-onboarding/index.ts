import { requireUser, type Handlers } from '../../shared/operations.ts';
import type { ChatOnboardingService } from './service.ts';

export { createChatOnboardingService, type ChatOnboardingService } from './service.ts';

export function chatOnboardingHandlers(chats: ChatOnboardingService): Handlers {
  return {
    createOnboardingChat: async (ctx) => chats.create(ctx.ip),
    claimOnboardingChat: async (ctx) => chats.claim(requireUser(ctx).id, ctx.params.chat_id, ctx.body.chat_token),
  };
}
