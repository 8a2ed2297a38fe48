export { CreditsPanel } from './CreditsPanel.tsx';
export { ProfilePage } from './ProfilePage.tsx';
