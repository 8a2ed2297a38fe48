export { ProfilePage } from './ProfilePage.tsx';
