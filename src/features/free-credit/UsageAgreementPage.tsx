import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { Button } from '../../ui/index.ts';
import * as styles from './free-credit.css.ts';
import { useSignUsageAgreement } from './requests.ts';

const TERMS = ['use', 'payment', 'content', 'ending'] as const;

/** Where the mailed usage agreement opens: read it, then sign it — deliberately, never on load. */
export function UsageAgreementPage({ token }: { token: string | undefined }) {
  const { t } = useTranslation('billing');
  const sign = useSignUsageAgreement();
  const outcome = () => {
    if (!token) return <p role="alert">{t('agreement.missingToken')}</p>;
    if (sign.isSuccess)
      return (
        <p role="status">
          {sign.data.credit_granted > 0
            ? t('agreement.signed', { email: sign.data.email })
            : t('agreement.signedBefore', { email: sign.data.email })}
        </p>
      );
    return (
      <>
        {sign.isError ? <p role="alert">{errorText(sign.error)}</p> : null}
        <Button disabled={sign.isPending} onClick={() => sign.mutate(token)}>
          {sign.isPending ? t('agreement.signing') : t('agreement.sign')}
        </Button>
      </>
    );
  };
  return (
    <main className={styles.page}>
      <h1>{t('agreement.title')}</h1>
      <section className={styles.agreement} aria-label={t('agreement.title')}>
        {TERMS.map((term) => (
          <p key={term}>{t(`agreement.terms.${term}`)}</p>
        ))}
      </section>
      {outcome()}
      <Link to="/dashboard">{t('agreement.toDashboard')}</Link>
    </main>
  );
}
