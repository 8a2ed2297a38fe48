import { useTranslation } from 'react-i18next';
import * as styles from './settings.css.ts';

/** A tab whose content another part of the product brings (the git integrations): it says what it will hold. */
export function PlannedTab({ tab }: { tab: 'integrations' }) {
  const { t } = useTranslation('settings');
  return (
    <section className={styles.section} aria-labelledby={`${tab}-heading`}>
      <h2 id={`${tab}-heading`} className={styles.sectionHeading}>
        {t(`planned.${tab}.heading`)}
      </h2>
      <p className={styles.muted}>{t(`planned.${tab}.text`)}</p>
    </section>
  );
}
