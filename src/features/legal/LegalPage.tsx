import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useClientConfig } from '../../app/hooks.ts';
import * as styles from './legal.css.ts';

const SECTIONS = {
  terms: ['operator', 'account', 'agent', 'content', 'availability', 'liability'],
  privacy: ['stored', 'model', 'browser', 'deletion'],
} as const;

type Document = keyof typeof SECTIONS;

/** `hosted`: the saas mode's service, run for its users; else a self-hosted installation (oss). */
function LegalPage({ document }: { document: Document }) {
  const hosted = useClientConfig()?.APP_MODE === 'saas';
  const { t } = useTranslation('legal');
  // Each document's sections are listed above, so the keys are known to exist.
  const text = (key: string) => t(`${document}.${key}` as 'terms.title');
  return (
    <article className={styles.page}>
      <h1>{text('title')}</h1>
      <p>{text(hosted ? 'introHosted' : 'intro')}</p>
      {SECTIONS[document].map((section) => (
        <section key={section}>
          <h2 className={styles.heading}>{text(`sections.${section}.heading`)}</h2>
          <p>{text(`sections.${section}.body`)}</p>
        </section>
      ))}
      <Link to="/dashboard">{t('back')}</Link>
    </article>
  );
}

export const TermsPage = () => <LegalPage document="terms" />;
export const PrivacyPage = () => <LegalPage document="privacy" />;
