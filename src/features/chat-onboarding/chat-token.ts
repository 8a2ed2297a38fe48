import type { OnboardingChat } from '../../../machines/chat-onboarding.ts';

// The chat's token is this tab's only: a reload reopens the chat, another tab starts its own.
export const ONBOARDING_CHAT_KEY = 'atelier.onboardingChat';

/** The chat this tab opened, when it is the one asked for (any, when none is named). */
export function keptChat(chatId: string | null, storage: Storage = sessionStorage): OnboardingChat | null {
  try {
    const kept = JSON.parse(storage.getItem(ONBOARDING_CHAT_KEY) ?? 'null') as OnboardingChat | null;
    if (!kept || typeof kept.id !== 'string' || typeof kept.token !== 'string') return null;
    return chatId === null || kept.id === chatId ? kept : null;
  } catch {
    return null;
  }
}

export function keepChat(chat: OnboardingChat, storage: Storage = sessionStorage): void {
  storage.setItem(ONBOARDING_CHAT_KEY, JSON.stringify({ id: chat.id, token: chat.token }));
}
