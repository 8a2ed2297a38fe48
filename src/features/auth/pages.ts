// The auth feature's pages, apart from its index (whose dialog and controls every page loads),
// so that each loads only with its route.
export { ExternalSignInPage, type ExternalSignInReturn } from './ExternalSignInPage.tsx';
export { VerifyEmailPage } from './VerifyEmailPage.tsx';
