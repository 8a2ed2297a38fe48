import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { useClientConfig, useCurrentUser } from '../../app/hooks.ts';
import { keepDismissedBanners, readDismissedBanners } from '../../app/local-data.ts';
import { SessionContext } from '../../app/session.ts';
import { Banner, Button } from '../../ui/index.ts';
import * as styles from './free-credit.css.ts';
import { freeCreditKeys, freeCreditRequests } from './requests.ts';

type BannerName = 'companyEmail' | 'usageAgreement' | 'paymentDetails';

/** Dismissed banners stay away for the browser session (spec §4). */
function useDismissed() {
  const [dismissed, setDismissed] = useState(readDismissedBanners);
  const dismiss = (name: BannerName) => {
    const next = [...dismissed, name];
    keepDismissedBanners(next);
    setDismissed(next);
  };
  return { isDismissed: (name: BannerName) => dismissed.includes(name), dismiss };
}

/** A free-credit banner: its text, its actions, and a way to dismiss it for the session. */
function FreeCreditBanner(props: {
  name: BannerName;
  text: string;
  children: ReactNode;
  status?: ReactNode;
  onDismiss: () => void;
}) {
  const { t } = useTranslation('billing', { useSuspense: false });
  return (
    <Banner label={t(`banners.${props.name}.label`)} text={props.text} status={props.status}>
      {props.children}
      <Button size="sm" tone="secondary" onClick={props.onDismiss}>
        {t('banners.dismiss')}
      </Button>
    </Banner>
  );
}

/**
 * The free-credit banners of the home page (spec §4): the company-email banner ($150) for
 * personal accounts, the usage-agreement banner ($100) for company accounts that have not signed
 * it, and the payment-details banner ($50) while none are saved. Their texts load on demand:
 * nothing waits for them.
 */
export function FreeCreditBanners() {
  const { t, ready } = useTranslation('billing', { useSuspense: false });
  const hosted = useClientConfig()?.APP_MODE === 'saas';
  const user = useCurrentUser();
  const session = SessionContext.useActorRef();
  const { isDismissed, dismiss } = useDismissed();
  const signedIn = hosted && user !== null && user.is_active;
  const paymentDetails = useQuery({
    queryKey: freeCreditKeys.paymentDetails,
    queryFn: ({ signal }) => freeCreditRequests.hasPaymentDetails(signal),
    enabled: signedIn,
    staleTime: 5 * 60_000,
  });
  const agreement = useMutation({ mutationFn: freeCreditRequests.sendUsageAgreement, meta: { disableToast: true } });
  if (!ready || !signedIn) return null;
  const showCompanyEmail = user.is_personal && !isDismissed('companyEmail');
  const showAgreement = !user.is_personal && !user.signed_agreement && !isDismissed('usageAgreement');
  const showPayment = paymentDetails.data === false && !isDismissed('paymentDetails');
  if (!showCompanyEmail && !showAgreement && !showPayment) return null;
  return (
    <div className={styles.banners}>
      {showCompanyEmail ? (
        <FreeCreditBanner
          name="companyEmail"
          text={t('banners.companyEmail.text')}
          onDismiss={() => dismiss('companyEmail')}
        >
          <Button size="sm" onClick={() => session.send({ type: 'OPEN_SIGN_UP' })}>
            {t('banners.companyEmail.action')}
          </Button>
        </FreeCreditBanner>
      ) : null}
      {showAgreement ? (
        <FreeCreditBanner
          name="usageAgreement"
          text={t('banners.usageAgreement.text', { email: user.email })}
          onDismiss={() => dismiss('usageAgreement')}
          status={
            <>
              {agreement.isSuccess ? t('banners.usageAgreement.sent', { email: agreement.data.email }) : null}
              {agreement.isError ? errorText(agreement.error) : null}
            </>
          }
        >
          <Button size="sm" disabled={agreement.isPending || agreement.isSuccess} onClick={() => agreement.mutate()}>
            {agreement.isPending ? t('banners.usageAgreement.sending') : t('banners.usageAgreement.action')}
          </Button>
        </FreeCreditBanner>
      ) : null}
      {showPayment ? (
        <FreeCreditBanner
          name="paymentDetails"
          text={t('banners.paymentDetails.text')}
          onDismiss={() => dismiss('paymentDetails')}
        >
          <Link to="/profile">{t('banners.paymentDetails.action')}</Link>
          <Link to="/claim-credit">{t('banners.paymentDetails.trial')}</Link>
        </FreeCreditBanner>
      ) : null}
    </div>
  );
}
