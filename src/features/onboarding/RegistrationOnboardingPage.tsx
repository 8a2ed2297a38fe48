import { Navigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { selectIsHeldForOnboarding, selectUser } from '../../../machines/session.ts';
import { useClientConfig } from '../../app/hooks.ts';
import { SessionContext } from '../../app/session.ts';
import { Avatar, Button } from '../../ui/index.ts';
import * as styles from './onboarding.css.ts';

/** Where accounts that are not active yet are held; active users (and visitors) belong on the dashboard. */
export function RegistrationOnboardingPage() {
  const { t } = useTranslation('onboarding');
  const session = SessionContext.useActorRef();
  const held = SessionContext.useSelector(selectIsHeldForOnboarding);
  const user = SessionContext.useSelector(selectUser);
  const config = useClientConfig();

  if (!held || !user) return <Navigate to="/dashboard" replace />;
  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{t('title')}</h1>
      <section className={styles.account} aria-labelledby="onboarding-account">
        <Avatar name={user.fullname || user.email} />
        <div className={styles.identity}>
          <h2 id="onboarding-account" className={styles.accountHeading}>
            {t('accountHeading')}
          </h2>
          <span className={styles.name}>{user.fullname}</span>
          <span className={styles.email}>{user.email}</span>
        </div>
        <Button tone="link" size="sm" onClick={() => session.send({ type: 'OPEN_SIGN_IN' })}>
          {t('switchAccount')}
        </Button>
      </section>
      {config ? <p>{t('inactive', { supportEmail: config.SUPPORT_EMAIL })}</p> : null}
    </div>
  );
}
