import { useTranslation } from 'react-i18next';
import * as styles from './home.css.ts';

/** The application home; its prompt box and quick starts come with the conversations. */
export function DashboardPage() {
  const { t } = useTranslation();
  return <h1 className={styles.heading}>{t('dashboard.heading')}</h1>;
}
