import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/index.ts';
import * as styles from './shell.css.ts';

/** A page that failed to render (a part of it that would not download, a bug): says so and offers a reload. */
export function PageFailed() {
  const { t } = useTranslation();
  return (
    <div className={styles.message} role="alert">
      <h1>{t('pageFailed.title')}</h1>
      <p className={styles.muted}>{t('pageFailed.body')}</p>
      <Button onClick={() => window.location.reload()}>{t('pageFailed.reload')}</Button>
    </div>
  );
}
