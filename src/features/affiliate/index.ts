export { AffiliateDashboard } from './AffiliateDashboard.tsx';
export { AffiliatePage } from './AffiliatePage.tsx';
export { AffiliateSessionProvider } from './session.tsx';
