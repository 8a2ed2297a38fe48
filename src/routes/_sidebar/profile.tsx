import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../../app/i18n.ts';
import { ProfilePage, profileSearch } from '../../features/profile/index.ts';

export const Route = createFileRoute('/_sidebar/profile')({
  validateSearch: profileSearch,
  loader: pageTexts('billing'),
  component: function ProfileRoute() {
    const navigate = Route.useNavigate();
    return (
      <ProfilePage
        payment={Route.useSearch().payment}
        onPaymentSeen={() => void navigate({ search: {}, replace: true })}
      />
    );
  },
});
