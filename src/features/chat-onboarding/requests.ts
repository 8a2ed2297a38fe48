import type { components } from '../../../openapi/schema.d.ts';
import type { OnboardingChat } from '../../../machines/chat-onboarding.ts';
import { dataOf } from '../../api/client.ts';
import { apiClient } from '../../app/services.ts';

type FilesBody = components['schemas']['OnboardingChatFilesRequest'];

/** The chat-only onboarding's calls (openapi/atelier.yaml, tag chat-onboarding). */
export const chatOnboardingRequests = {
  open: () => dataOf(apiClient.POST('/api/onboarding-chat')),
  /** Binds the chat to the account now signed in (the bearer token is the session's). */
  claim: (chat: OnboardingChat) =>
    dataOf(
      apiClient.POST('/api/onboarding-chat/{chat_id}/claim', {
        params: { path: { chat_id: chat.id } },
        body: { chat_token: chat.token },
      }),
    ),
  /** The visitor's project files, kept with the chat until it upgrades (the chat's token authenticates). */
  upload: (chat: OnboardingChat, files: readonly File[]) => {
    const form = new FormData();
    for (const file of files) form.append('files', file);
    return dataOf(
      apiClient.POST('/api/onboarding-chat/{chat_id}/files', {
        params: { path: { chat_id: chat.id } },
        headers: { 'X-Chat-Token': chat.token },
        body: {} as FilesBody,
        bodySerializer: () => form,
      }),
    );
  },
};
