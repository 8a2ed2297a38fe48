import { createFileRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useClientConfig } from '../app/hooks.ts';
import { ReferralPage } from '../features/referral/index.ts';
import { NotFoundPage } from '../features/shell/index.ts';
import { PageSpinner } from '../ui/index.ts';

/** A referral link, /{affiliateCode}: any single segment that is not a page of the site. */
export const Route = createFileRoute('/$affiliateCode')({
  component: function ReferralRoute() {
    const { affiliateCode } = Route.useParams();
    const config = useClientConfig();
    const { t } = useTranslation();
    // The click goes to the affiliate API's host, which the configuration names.
    if (!config) return <PageSpinner label={t('referral.redirecting')} />;
    return <ReferralPage code={affiliateCode} affiliateApiUrl={config.AFFILIATE_API_URL} unknown={<NotFoundPage />} />;
  },
});
