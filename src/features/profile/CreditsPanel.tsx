import { Link } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClientConfig, useCurrentUser } from '../../app/hooks.ts';
import { money } from '../../rules/usd.ts';
import { Button } from '../../ui/index.ts';
import { BuyCreditsDialog } from './BuyCreditsDialog.tsx';
import { CardPanel } from './CardPanel.tsx';
import { CardSetupButton } from './CardSetupButton.tsx';
import * as styles from './profile.css.ts';

/** The balance with Buy Credits: on /profile, and as the settings' Credits tab (with a way to the history). */
export function CreditsPanel({ linkToHistory = false }: { linkToHistory?: boolean }) {
  const { t, i18n } = useTranslation(['auth', 'billing']);
  const balance = useCurrentUser()?.credits.balance ?? 0;
  const hostedPayments = useClientConfig()?.HOSTED_PAYMENTS ?? false;
  const [buying, setBuying] = useState(false);
  const closeBuying = useCallback(() => setBuying(false), []);
  return (
    <section className={styles.section} aria-labelledby="credits-balance">
      <h2 id="credits-balance" className={styles.heading}>
        {t('profile.balance')}
      </h2>
      <div className={styles.balanceRow}>
        <p>{money.total(balance, i18n.language)}</p>
        <Button onClick={() => setBuying(true)}>{t('billing:buy.open')}</Button>
        {hostedPayments ? <CardSetupButton /> : null}
        {linkToHistory ? <Link to="/profile">{t('billing:history')}</Link> : null}
      </div>
      {hostedPayments ? null : <CardPanel />}
      {buying ? <BuyCreditsDialog onClose={closeBuying} /> : null}
    </section>
  );
}
