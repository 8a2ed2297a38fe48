import { useTranslation } from 'react-i18next';
import { SessionContext } from '../../app/session.ts';
import { Button } from '../../ui/index.ts';
import * as styles from './shell.css.ts';

/** The server could not be reached while starting. */
export function Unavailable() {
  const { t } = useTranslation();
  const session = SessionContext.useActorRef();
  return (
    <div className={styles.message} role="alert">
      <h1>{t('unavailable.title')}</h1>
      <p className={styles.muted}>{t('unavailable.body')}</p>
      <Button onClick={() => session.send({ type: 'RETRY' })}>{t('unavailable.retry')}</Button>
    </div>
  );
}
