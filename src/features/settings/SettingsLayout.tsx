import { Link, Navigate, useChildMatches } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../app/hooks.ts';
import { SessionContext } from '../../app/session.ts';
import { Button } from '../../ui/index.ts';
import * as styles from './settings.css.ts';
import { SETTINGS_TABS, settingsRedirect, settingsTabs, type SettingsTab } from './tabs.ts';

const tabOfPath = (pathname: string): SettingsTab | undefined =>
  (Object.keys(SETTINGS_TABS) as SettingsTab[]).find((tab) => SETTINGS_TABS[tab] === pathname.replace(/\/$/, ''));

/** The settings page: the mode's tabs as links, the chosen tab below; anonymous visitors are asked to sign in. */
export function SettingsLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('settings');
  const session = SessionContext.useActorRef();
  const mode = SessionContext.useSelector((snapshot) => snapshot.context.mode) ?? 'saas';
  const signedIn = useCurrentUser() !== null;
  // The tab actually rendered below (during a navigation the location moves before the outlet does).
  const current = tabOfPath(useChildMatches({ select: (matches) => matches[0]?.fullPath ?? SETTINGS_TABS.llm }));
  const redirect = current && settingsRedirect(mode, current);
  if (redirect) return <Navigate to={redirect} replace />;

  return (
    <div className={styles.page}>
      <h1 className={styles.heading}>{t('title')}</h1>
      {signedIn ? (
        <>
          <nav className={styles.tabs} aria-label={t('tabsLabel')}>
            {settingsTabs(mode).map((tab) => (
              <Link key={tab} to={SETTINGS_TABS[tab]} className={styles.tab} activeOptions={{ exact: true }}>
                {t(`tabs.${tab}`)}
              </Link>
            ))}
          </nav>
          {children}
        </>
      ) : (
        <section className={styles.section} aria-labelledby="settings-sign-in">
          <p id="settings-sign-in" className={styles.muted}>
            {t('signInFirst')}
          </p>
          <div className={styles.actions}>
            <Button onClick={() => session.send({ type: 'OPEN_SIGN_IN' })}>{t('signIn')}</Button>
          </div>
        </section>
      )}
    </div>
  );
}
