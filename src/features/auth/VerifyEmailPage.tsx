import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { useVerifyEmail } from '../../app/hooks.ts';
import { Spinner } from '../../ui/index.ts';
import * as styles from './auth.css.ts';

/** Where a verification link lands: the token is sent once, and the answer shown with the ways on. */
export function VerifyEmailPage({ token }: { token: string | undefined }) {
  const { t } = useTranslation('auth');
  const verify = useVerifyEmail();
  const { mutate } = verify;
  useEffect(() => {
    // Using a link twice answers the same, so a second run of this effect does no harm.
    if (token) mutate(token);
  }, [token, mutate]);
  const outcome = () => {
    if (!token) return <p role="alert">{t('verification.missingToken')}</p>;
    if (verify.isSuccess) return <p role="status">{t('verification.verified', { email: verify.data.email })}</p>;
    if (verify.isError) return <p role="alert">{errorText(verify.error)}</p>;
    return <Spinner label={t('verification.verifying')} />;
  };
  return (
    <main className={styles.verifyPage}>
      <h1>{t('verification.pageTitle')}</h1>
      {outcome()}
      <nav className={styles.links} aria-label={t('verification.pageTitle')}>
        <Link to="/dashboard">{t('verification.toDashboard')}</Link>
        {verify.isSuccess ? null : <Link to="/settings/user">{t('verification.toSettings')}</Link>}
      </nav>
    </main>
  );
}
