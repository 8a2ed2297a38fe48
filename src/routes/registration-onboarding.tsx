import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../app/i18n.ts';
import { RegistrationOnboardingPage } from '../features/onboarding/index.ts';

interface RegistrationOnboardingSearch {
  /** The onboarding chat that sent the person here: they go back to it when done, not to the dashboard. */
  chat?: string;
  /** The setup session Stripe's card page sent the browser back with. */
  setup_session?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

export const Route = createFileRoute('/registration-onboarding')({
  validateSearch: (search: Record<string, unknown>): RegistrationOnboardingSearch => {
    const chat = text(search['chat']);
    const setupSession = search['payment'] === 'card-saved' ? text(search['setup_session']) : undefined;
    return { ...(chat && { chat }), ...(setupSession && { setup_session: setupSession }) };
  },
  loader: pageTexts('onboarding'),
  component: function RegistrationOnboardingRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <RegistrationOnboardingPage
        chatId={search.chat ?? null}
        setupSession={search.setup_session ?? null}
        onSetupSessionUsed={() => void navigate({ search: ({ chat }) => ({ ...(chat && { chat }) }), replace: true })}
      />
    );
  },
});
