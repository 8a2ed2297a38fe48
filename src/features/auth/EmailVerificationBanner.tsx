import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { useCurrentUser, useEmailUnverified, useResendVerification } from '../../app/hooks.ts';
import { Banner, Button } from '../../ui/index.ts';

/** While the account's email waits for verification: what to do, and a new link on request. */
export function EmailVerificationBanner() {
  const { t } = useTranslation('auth');
  const unverified = useEmailUnverified();
  const email = useCurrentUser()?.email ?? '';
  const resend = useResendVerification();
  if (!unverified) return null;
  return (
    <Banner
      label={t('verification.pageTitle')}
      text={t('verification.bannerText', { email })}
      status={
        <>
          {resend.isSuccess ? t('verification.sent', { email: resend.data.email }) : null}
          {resend.isError ? errorText(resend.error) : null}
        </>
      }
    >
      <Button size="sm" tone="secondary" disabled={resend.isPending} onClick={() => resend.mutate()}>
        {resend.isPending ? t('verification.sending') : t('verification.resend')}
      </Button>
    </Banner>
  );
}
