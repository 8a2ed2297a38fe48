export { AccountControls } from './AccountControls.tsx';
export { AuthDialog } from './AuthDialog.tsx';
export { ExternalSignInPage, type ExternalSignInReturn } from './ExternalSignInPage.tsx';
export { EmailVerificationBanner } from './EmailVerificationBanner.tsx';
export { VerifyEmailPage } from './VerifyEmailPage.tsx';
