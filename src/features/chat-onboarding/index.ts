export { ChatOnboardingPage } from './ChatOnboardingPage.tsx';
