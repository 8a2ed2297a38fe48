export { RegistrationOnboardingPage } from './RegistrationOnboardingPage.tsx';
export { CardDialog } from './CardDialog.tsx';
export { onboardingRequests } from './requests.ts';
