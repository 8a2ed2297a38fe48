export { AccountControls } from './AccountControls.tsx';
export { AuthDialog } from './AuthDialog.tsx';
export { EmailVerificationBanner } from './EmailVerificationBanner.tsx';
