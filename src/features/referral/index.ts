export { ReferralPage } from './ReferralPage.tsx';
