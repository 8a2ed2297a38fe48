export { ClaimCreditPage } from './ClaimCreditPage.tsx';
export { FreeCreditBanners } from './FreeCreditBanners.tsx';
export { UsageAgreementPage } from './UsageAgreementPage.tsx';
