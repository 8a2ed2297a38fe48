import { useTranslation } from 'react-i18next';
import * as styles from './affiliate.css.ts';
import { TIERS } from './tiers.ts';

/** The three tiers and the second-level bonus (spec §9), on the affiliate page and the dashboard. */
export function CommissionTiers() {
  const { t } = useTranslation('affiliate');
  return (
    <section className={styles.section} aria-labelledby="commission-heading">
      <h2 id="commission-heading" className={styles.heading}>
        {t('commission.heading')}
      </h2>
      <p className={styles.lead}>{t('commission.lead')}</p>
      <ul className={styles.grid}>
        {TIERS.map((tier) => (
          <li key={tier.key} className={styles.card}>
            <span className={styles.cardTitle}>
              {t('commission.tier', { number: tier.number, name: t(`commission.${tier.key}`) })}
            </span>
            <span className={styles.figure}>{t('commission.rate', { rate: tier.rate })}</span>
            <span className={styles.muted}>{t(`commission.${tier.key}Range`)}</span>
          </li>
        ))}
      </ul>
      <p>{t('commission.secondLevel')}</p>
    </section>
  );
}
