import { useTranslation } from 'react-i18next';
import * as styles from './sidebar.css.ts';
import type { Conversation } from '../../../openapi/types.ts';

const ICON = { RUNNING: styles.running, STARTING: styles.starting, STOPPED: styles.stopped } as const;

/** The status with its icon: a green dot running, a spinning ring starting, a grey dot stopped. */
export function StatusBadge({ status }: { status: Conversation['status'] }) {
  const { t } = useTranslation('conversations');
  return (
    <span className={styles.badge}>
      <span className={`${styles.statusIcon} ${ICON[status]}`} aria-hidden="true" />
      {t(`status.${status}`)}
    </span>
  );
}
