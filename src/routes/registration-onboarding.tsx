import { createFileRoute } from '@tanstack/react-router';
import { RegistrationOnboardingPage } from '../features/onboarding/index.ts';

export const Route = createFileRoute('/registration-onboarding')({
  component: RegistrationOnboardingPage,
});
