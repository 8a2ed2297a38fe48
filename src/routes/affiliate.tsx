import { createFileRoute, Outlet } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { pageTexts } from '../app/i18n.ts';
import { useClientConfig } from '../app/hooks.ts';
import { AffiliateSessionProvider } from '../features/affiliate/index.ts';
import { PageSpinner } from '../ui/index.ts';

/** The affiliate programme's pages, around one affiliate session on the configured affiliate API. */
export const Route = createFileRoute('/affiliate')({
  loader: pageTexts('affiliate'),
  staticData: { publicSite: true },
  component: function AffiliateLayout() {
    const config = useClientConfig();
    const { t } = useTranslation('affiliate');
    if (!config) return <PageSpinner label={t('dashboard.loading')} />;
    return (
      <AffiliateSessionProvider apiUrl={config.AFFILIATE_API_URL}>
        <Outlet />
      </AffiliateSessionProvider>
    );
  },
});
