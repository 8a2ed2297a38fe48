import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import * as styles from './affiliate.css.ts';

/** The affiliate pages' sticky header: the logo (back to /affiliate), a label and the session's buttons. */
export function AffiliateHeader({ label, children }: { label?: string; children: ReactNode }) {
  const { t } = useTranslation(['affiliate', 'common']);
  return (
    <header className={styles.header}>
      <Link to="/affiliate" className={styles.brand}>
        <svg width="28" height="28" viewBox="0 0 28 28" aria-hidden="true" focusable="false">
          <rect width="28" height="28" rx="8" fill="currentColor" />
        </svg>
        <span>{t('common:app.name')}</span>
        {label ? <span className={styles.headerLabel}>{label}</span> : null}
      </Link>
      <div className={styles.headerActions}>{children}</div>
    </header>
  );
}
