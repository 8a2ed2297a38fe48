export { RegistrationOnboardingPage } from './RegistrationOnboardingPage.tsx';
