export { CreditsPanel } from './CreditsPanel.tsx';
export { ProfilePage } from './ProfilePage.tsx';
export { profileSearch } from './payment-return.ts';
