import { createFileRoute } from '@tanstack/react-router';
import { VerifyEmailPage } from '../features/auth/pages.ts';

/** Where the mailed verification link opens: /verify-email?token=… */
export const Route = createFileRoute('/verify-email')({
  // The link works without an account, and an account still in onboarding sees that it worked.
  staticData: { withoutAccount: true },
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    typeof search.token === 'string' ? { token: search.token } : {},
  component: function VerifyEmailRoute() {
    return <VerifyEmailPage token={Route.useSearch().token} />;
  },
});
