import { useTranslation } from 'react-i18next';
import * as styles from './landing.css.ts';

const STATS = [
  { key: 'developers', figure: 10 },
  { key: 'successRate', figure: 99 },
  { key: 'hoursSaved', figure: 24 },
] as const;
const FEATURES = ['agent', 'runtime', 'git', 'workspace', 'models', 'credits'] as const;
const TESTIMONIALS = ['first', 'second', 'third'] as const;
const REASONS = ['transparent', 'yours', 'fair'] as const;

/**
 * The public landing page (public-site spec §2), markup only: the server sends it prerendered
 * (scripts/prerender-landing.ts) and activate.ts gives it its behaviour, so its links are plain
 * links and it holds no state.
 */
export function LandingMarkup({ buildNumber }: { buildNumber: string }) {
  const { t } = useTranslation(['landing', 'common']);
  return (
    <div className={styles.page}>
      <aside className={styles.banner} data-landing-banner="">
        <p>
          {t('banner.text')}{' '}
          <a className={styles.bannerLink} href="/affiliate">
            {t('banner.link')}
          </a>
        </p>
        <button type="button" className={styles.bannerClose} data-dismiss-banner="" aria-label={t('banner.dismiss')}>
          <span aria-hidden="true">×</span>
        </button>
      </aside>
      <header className={styles.header}>
        <a className={styles.brand} href="/">
          {t('common:app.name')}
        </a>
        <nav className={styles.nav} aria-label={t('nav.label')}>
          <a href="#features">{t('nav.features')}</a>
          <a href="#about">{t('nav.about')}</a>
          <a href="/affiliate">{t('nav.affiliate')}</a>
          <a className={styles.action({ tone: 'primary' })} href="/dashboard">
            {t('nav.goToApp')}
          </a>
        </nav>
      </header>
      <main>
        <section className={styles.hero}>
          <h1 className={styles.heroTitle}>{t('hero.title')}</h1>
          <p className={styles.lead}>{t('hero.lead')}</p>
          <div className={styles.actions}>
            <a className={styles.action({ tone: 'primary' })} href="/dashboard">
              {t('hero.start')}
            </a>
            <a className={styles.action({ tone: 'secondary' })} href="#features">
              {t('hero.learnMore')}
            </a>
            <a className={styles.action({ tone: 'secondary' })} href="/onboarding">
              {t('hero.chat')}
            </a>
          </div>
          <ul className={styles.stats} aria-label={t('stats.label')}>
            {STATS.map(({ key, figure }) => (
              <li key={key} className={styles.stat}>
                <span className={styles.figure}>
                  <span data-count-to={figure}>{figure}</span>+
                </span>
                <span>{t(`stats.${key}`)}</span>
              </li>
            ))}
          </ul>
        </section>
        <section id="features" className={styles.section} aria-labelledby="features-heading">
          <h2 id="features-heading" className={styles.sectionTitle}>
            {t('features.heading')}
          </h2>
          <ul className={styles.grid}>
            {FEATURES.map((key) => (
              <li key={key} className={styles.card}>
                <h3 className={styles.cardTitle}>{t(`features.${key}.title`)}</h3>
                <p>{t(`features.${key}.body`)}</p>
              </li>
            ))}
          </ul>
        </section>
        <section className={styles.section} aria-labelledby="testimonials-heading">
          <h2 id="testimonials-heading" className={styles.sectionTitle}>
            {t('testimonials.heading')}
          </h2>
          <ul className={styles.grid}>
            {TESTIMONIALS.map((key) => (
              <li key={key} className={styles.card}>
                <figure className={styles.quote}>
                  <blockquote>{t(`testimonials.${key}.quote`)}</blockquote>
                  <figcaption className={styles.muted}>{t(`testimonials.${key}.author`)}</figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </section>
        <section id="about" className={styles.section} aria-labelledby="about-heading">
          <h2 id="about-heading" className={styles.sectionTitle}>
            {t('about.heading')}
          </h2>
          <p className={styles.lead}>{t('about.body')}</p>
          <ul className={styles.reasons}>
            {REASONS.map((key) => (
              <li key={key}>{t(`about.points.${key}`)}</li>
            ))}
          </ul>
        </section>
        <section className={styles.closing} aria-labelledby="cta-heading">
          <h2 id="cta-heading" className={styles.sectionTitle}>
            {t('cta.heading')}
          </h2>
          <p>{t('cta.body')}</p>
          <div className={styles.actions}>
            <a className={styles.action({ tone: 'primary' })} href="/dashboard">
              {t('cta.start')}
            </a>
            <a className={styles.action({ tone: 'secondary' })} href="/onboarding">
              {t('cta.chat')}
            </a>
          </div>
        </section>
      </main>
      <footer className={styles.footer} aria-label={t('footer.label')}>
        <span>{t('footer.rights')}</span>
        <a href="/terms">{t('footer.terms')}</a>
        <a href="/privacy">{t('footer.privacy')}</a>
        <a href="/affiliate">{t('footer.affiliate')}</a>
        <span className={styles.muted}>{t('footer.build', { number: buildNumber })}</span>
      </footer>
    </div>
  );
}
