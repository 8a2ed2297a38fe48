import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../../app/i18n.ts';
import { ClaimCreditPage } from '../../features/free-credit/index.ts';

/** The claim-credit page (the spec leaves its path open): the $100 trial for a verified card. */
interface ClaimCreditSearch {
  /** The setup session Stripe's card page sent the browser back with. */
  setup_session?: string;
}

export const Route = createFileRoute('/_sidebar/claim-credit')({
  validateSearch: (search: Record<string, unknown>): ClaimCreditSearch =>
    search['payment'] === 'card-saved' && typeof search['setup_session'] === 'string' && search['setup_session']
      ? { setup_session: search['setup_session'] }
      : {},
  loader: pageTexts('billing'),
  component: function ClaimCreditRoute() {
    const setupSession = Route.useSearch().setup_session ?? null;
    // Another session is another visit: the page starts again with it.
    return <ClaimCreditPage key={setupSession ?? ''} setupSession={setupSession} />;
  },
});
