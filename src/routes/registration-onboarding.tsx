import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../app/i18n.ts';
import { RegistrationOnboardingPage } from '../features/onboarding/index.ts';

export const Route = createFileRoute('/registration-onboarding')({
  loader: pageTexts('onboarding'),
  component: RegistrationOnboardingPage,
});
