import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../../app/i18n.ts';
import { ProfilePage } from '../../features/profile/index.ts';
// The search is read in the route's eager part: through the feature's index it would bring the
// whole profile page (its styles are side effects) into every page's first download.
import { profileSearch } from '../../features/profile/payment-return.ts';

export const Route = createFileRoute('/_sidebar/profile')({
  validateSearch: profileSearch,
  loader: pageTexts('billing'),
  component: function ProfileRoute() {
    const navigate = Route.useNavigate();
    const search = Route.useSearch();
    return (
      <ProfilePage
        payment={search.payment}
        setupSession={search.setup_session ?? null}
        onPaymentSeen={() => void navigate({ search: {}, replace: true })}
      />
    );
  },
});
