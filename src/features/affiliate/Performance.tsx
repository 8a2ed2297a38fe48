import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Dialog } from '../../ui/index.ts';
import * as styles from './affiliate.css.ts';
import { affiliateKeys } from './requests.ts';
import { useAffiliateRequests } from './session.tsx';
import { dollars, percentOfWay, progressToNextTier, tierOf } from './tiers.ts';

/** 'Your Performance': four cards from the earnings summary, the tier bar and 'Detailed Reports' (spec §2, §4). */
export function Performance() {
  const { t, i18n } = useTranslation('affiliate');
  const requests = useAffiliateRequests();
  const [reportsOpen, setReportsOpen] = useState(false);
  const earnings = useQuery({
    queryKey: affiliateKeys.earnings,
    queryFn: () => requests.earnings(),
    meta: { affiliate: true, errorFallback: t('errors.loadEarnings') },
  }).data;
  const money = (amount: number) => dollars(amount, i18n.language);
  const revenue = earnings?.current_month_revenue ?? 0;
  const tier = tierOf(revenue);
  const progress = progressToNextTier(revenue);
  const tierName = (key: string) => t(`commission.${key as 'starter'}`);
  const progressText = progress
    ? t('dashboard.toNextTier', { amount: money(progress.missing), name: tierName(progress.next.key) })
    : t('dashboard.maxTier');
  const cards = earnings
    ? [
        { title: t('dashboard.totalEarnings'), figure: money(earnings.total_earnings) },
        { title: t('dashboard.monthEarnings'), figure: money(earnings.current_month_earnings) },
        { title: t('dashboard.monthRevenue'), figure: money(earnings.current_month_revenue) },
        {
          title: t('dashboard.referrals'),
          figure: String(earnings.total_referrals),
          note: t('dashboard.activeReferrals', { count: earnings.active_referrals }),
        },
      ]
    : [];
  return (
    <section className={styles.section} aria-labelledby="performance-heading">
      <div className={styles.sectionHeader}>
        <h2 id="performance-heading" className={styles.heading}>
          {t('dashboard.performance')}
        </h2>
        <Button tone="secondary" onClick={() => setReportsOpen(true)}>
          {t('dashboard.detailedReports')}
        </Button>
      </div>
      <ul className={styles.grid}>
        {cards.map((card) => (
          <li key={card.title} className={styles.card}>
            <span className={styles.muted}>{card.title}</span>
            <span className={styles.figure}>{card.figure}</span>
            {card.note ? <span className={styles.muted}>{card.note}</span> : null}
          </li>
        ))}
      </ul>
      <div className={styles.stack}>
        <span id="tier-label">
          {t('dashboard.tierNow', { number: tier.number, name: tierName(tier.key), rate: tier.percent })}
        </span>
        <div
          className={styles.progress}
          role="progressbar"
          aria-labelledby="tier-label"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percentOfWay(progress?.fraction ?? 1)}
          aria-valuetext={progressText}
        >
          <div className={styles.progressFill} style={{ width: `${(progress?.fraction ?? 1) * 100}%` }} />
        </div>
        <span className={styles.muted}>{progressText}</span>
      </div>
      <Dialog
        open={reportsOpen}
        onOpenChange={setReportsOpen}
        title={t('dashboard.comingSoonTitle')}
        description={t('dashboard.comingSoonBody')}
        closeLabel={t('create.close')}
      >
        <div className={styles.buttons}>
          <Button onClick={() => setReportsOpen(false)}>{t('dashboard.gotIt')}</Button>
        </div>
      </Dialog>
    </section>
  );
}
