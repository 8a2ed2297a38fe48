import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { selectSignedIn } from '../../../machines/affiliate-session.ts';
import { Button } from '../../ui/index.ts';
import * as styles from './affiliate.css.ts';
import { AffiliateHeader } from './AffiliateHeader.tsx';
import { CommissionTiers } from './CommissionTiers.tsx';
import { LoginDialog } from './LoginDialog.tsx';
import { RegistrationForm } from './RegistrationForm.tsx';
import { useAffiliateSelector, useAffiliateSession } from './session.tsx';

const BENEFITS = ['recurring', 'secondLevel', 'tracking'] as const;

/** Scrolls to the registration form (the 'Register' buttons are links to it). */
const registerLink = (label: string) => (
  <Button asChild tone="secondary">
    <a href="#register">{label}</a>
  </Button>
);

/** /affiliate: the programme, the registration form and the login dialog (public-site spec §2). */
export function AffiliatePage() {
  const { t } = useTranslation('affiliate');
  const session = useAffiliateSession();
  const signedIn = useAffiliateSelector(selectSignedIn);
  return (
    <div className={styles.page}>
      <AffiliateHeader>
        {signedIn ? (
          <>
            <Button asChild tone="secondary">
              <Link to="/affiliate/dashboard">{t('header.dashboard')}</Link>
            </Button>
            <Button tone="ghost" onClick={() => session.send({ type: 'LOG_OUT' })}>
              {t('header.logout')}
            </Button>
          </>
        ) : (
          <>
            {registerLink(t('header.register'))}
            <Button onClick={() => session.send({ type: 'OPEN_LOGIN' })}>{t('header.login')}</Button>
          </>
        )}
      </AffiliateHeader>
      <main className={styles.main}>
        <section className={styles.hero}>
          <h1 className={styles.heroTitle}>{t('hero.title')}</h1>
          <p className={styles.lead}>{t('hero.lead')}</p>
          {registerLink(t('hero.register'))}
        </section>
        <section className={styles.section} aria-labelledby="benefits-heading">
          <h2 id="benefits-heading" className={styles.heading}>
            {t('benefits.heading')}
          </h2>
          <ul className={styles.grid}>
            {BENEFITS.map((key) => (
              <li key={key} className={styles.card}>
                <h3 className={styles.cardTitle}>{t(`benefits.${key}.title`)}</h3>
                <p>{t(`benefits.${key}.body`)}</p>
              </li>
            ))}
          </ul>
        </section>
        <CommissionTiers />
        <section className={styles.section} aria-labelledby="offer-heading">
          <div className={styles.offer}>
            <h2 id="offer-heading" className={styles.cardTitle}>
              {t('offer.heading')}
            </h2>
            <p>{t('offer.body')}</p>
          </div>
        </section>
        <section id="register" className={styles.section} aria-labelledby="register-heading">
          <h2 id="register-heading" className={styles.heading}>
            {t('form.heading')}
          </h2>
          <RegistrationForm />
        </section>
      </main>
      <footer className={styles.footer}>
        <span>{t('footer.rights')}</span>
      </footer>
      <LoginDialog />
    </div>
  );
}
