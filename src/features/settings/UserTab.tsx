import { useTranslation } from 'react-i18next';
import { useCurrentUser, useResendVerification } from '../../app/hooks.ts';
import { Button, Spinner } from '../../ui/index.ts';
import { ErrorAlert } from './ConfirmActionDialog.tsx';
import * as styles from './settings.css.ts';

/** The account's email and whether it is verified; a new verification link while it is not. */
export function UserTab() {
  const { t } = useTranslation('settings');
  const user = useCurrentUser();
  const resend = useResendVerification();
  if (!user) return <Spinner label={t('loading')} />;
  return (
    <section className={styles.section} aria-labelledby="user-heading">
      <h2 id="user-heading" className={styles.sectionHeading}>
        {t('user.heading')}
      </h2>
      <dl className={styles.form}>
        <dt className={styles.muted}>{t('user.email')}</dt>
        <dd className={styles.code}>{user.email}</dd>
        <dt className={styles.muted}>{t('user.status')}</dt>
        <dd>{user.email_verified ? t('user.verified') : t('user.notVerified')}</dd>
      </dl>
      {user.email_verified ? null : (
        <div className={styles.form}>
          <p className={styles.muted}>{t('user.verifyHint', { email: user.email })}</p>
          <div>
            <Button disabled={resend.isPending} onClick={() => resend.mutate()}>
              {resend.isPending ? t('user.sending') : t('user.resend')}
            </Button>
          </div>
          <p role="status">{resend.isSuccess ? t('user.sent', { email: resend.data.email }) : null}</p>
          <ErrorAlert error={resend.error} />
        </div>
      )}
    </section>
  );
}
