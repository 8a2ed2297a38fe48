import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../app/i18n.ts';
import { RegistrationOnboardingPage } from '../features/onboarding/index.ts';

interface RegistrationOnboardingSearch {
  /** The onboarding chat that sent the person here: they go back to it when done, not to the dashboard. */
  chat?: string;
}

export const Route = createFileRoute('/registration-onboarding')({
  validateSearch: (search: Record<string, unknown>): RegistrationOnboardingSearch =>
    typeof search['chat'] === 'string' && search['chat'] !== '' ? { chat: search['chat'] } : {},
  loader: pageTexts('onboarding'),
  component: function RegistrationOnboardingRoute() {
    return <RegistrationOnboardingPage chatId={Route.useSearch().chat ?? null} />;
  },
});
