import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../app/i18n.ts';
import { ChatOnboardingPage } from '../features/chat-onboarding/index.ts';

interface OnboardingSearch {
  /** The chat's id (spec §1: the query parameter conversation). */
  conversation?: string;
}

// The chat-only onboarding (spec §4): no sidebar, no menus; it works before there is an account.
export const Route = createFileRoute('/onboarding')({
  validateSearch: (search: Record<string, unknown>): OnboardingSearch =>
    typeof search['conversation'] === 'string' && search['conversation'] !== ''
      ? { conversation: search['conversation'] }
      : {},
  loader: pageTexts('chatOnboarding'),
  staticData: { withoutAccount: true },
  component: OnboardingChat,
});

function OnboardingChat() {
  const { conversation } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ChatOnboardingPage
      chatId={conversation ?? null}
      showChat={(chatId) => void navigate({ search: { conversation: chatId }, replace: true })}
      openConversation={(conversationId) =>
        void navigate({
          to: '/experiment/conversations/$conversationId',
          params: { conversationId },
          search: { from: 'onboarding' },
        })
      }
    />
  );
}
