import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/index.ts';
import * as styles from './shell.css.ts';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className={styles.message}>
      <h1>{t('notFound.title')}</h1>
      <p className={styles.muted}>{t('notFound.body')}</p>
      <Button asChild tone="secondary">
        <Link to="/dashboard">{t('notFound.back')}</Link>
      </Button>
    </div>
  );
}
