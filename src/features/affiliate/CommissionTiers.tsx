import { useTranslation } from 'react-i18next';
import { SECOND_LEVEL_PERCENT } from '../../../machines/commission-tiers.ts';
import * as styles from './affiliate.css.ts';
import { TIERS, tierRange } from './tiers.ts';

/** The three tiers and the second-level bonus (spec §9), on the affiliate page and the dashboard. */
export function CommissionTiers() {
  const { t, i18n } = useTranslation('affiliate');
  // From a threshold on: exactly $50,000 is tier 2 (machines/commission-tiers.ts).
  const rangeText = ({ from, to }: { from: string; to: string | null }) => {
    if (to === null) return t('commission.rangeFrom', { from });
    return from === tierRange(TIERS[0], i18n.language).from
      ? t('commission.rangeUnder', { to })
      : t('commission.rangeBetween', { from, to });
  };
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
            <span className={styles.figure}>{t('commission.rate', { rate: tier.percent })}</span>
            <span className={styles.muted}>{rangeText(tierRange(tier, i18n.language))}</span>
          </li>
        ))}
      </ul>
      <p>{t('commission.secondLevel', { rate: SECOND_LEVEL_PERCENT })}</p>
    </section>
  );
}
