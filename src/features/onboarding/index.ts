export { RegistrationOnboardingPage } from './RegistrationOnboardingPage.tsx';
export { CardDialog } from './CardDialog.tsx';
export { onboardingRequests, type CardSetupReturn } from './requests.ts';
