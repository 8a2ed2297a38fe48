import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../app/i18n.ts';
import { UsageAgreementPage } from '../features/free-credit/index.ts';

/** Where the mailed usage agreement opens: /usage-agreement?token=… */
export const Route = createFileRoute('/usage-agreement')({
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    typeof search.token === 'string' ? { token: search.token } : {},
  loader: pageTexts('billing'),
  component: function UsageAgreementRoute() {
    return <UsageAgreementPage token={Route.useSearch().token} />;
  },
});
