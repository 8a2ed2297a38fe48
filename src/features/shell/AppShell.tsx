import { Link, Navigate, useMatches, useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { selectIsLoading, selectIsSigningOut, selectIsUnavailable } from '../../../machines/session.ts';
import { useHeldForOnboarding, useSavedLanguage } from '../../app/hooks.ts';
import { SessionContext } from '../../app/session.ts';
import { HeaderSlot, HeaderSlotProvider, PageSpinner } from '../../ui/index.ts';
import { AccountControls, AuthDialog } from '../auth/index.ts';
import * as styles from './shell.css.ts';
import { Unavailable } from './Unavailable.tsx';

const ONBOARDING_PATH = '/registration-onboarding';

/** Header and main area around every page, with the loading, unreachable and onboarding-hold states of the session. */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const loading = SessionContext.useSelector(selectIsLoading);
  const signingOut = SessionContext.useSelector(selectIsSigningOut);
  const unavailable = SessionContext.useSelector(selectIsUnavailable);
  const heldForOnboarding = useHeldForOnboarding();
  useSavedLanguage();
  const onOnboardingPage = useRouterState({ select: (state) => state.location.pathname === ONBOARDING_PATH });
  const publicSite = useMatches({ select: (matches) => matches.some((match) => match.staticData.publicSite) });
  const withoutAccount = useMatches({
    select: (matches) => matches.some((match) => match.staticData.withoutAccount),
  });

  const content = () => {
    if (unavailable) return <Unavailable />;
    // Signing up inside the chat loads the new user meanwhile: the chat stays.
    if (withoutAccount) return children;
    if (loading) return <PageSpinner label={t('loading.app')} />;
    if (signingOut) return <PageSpinner label={t('loading.signingOut')} />;
    if (heldForOnboarding && !onOnboardingPage) return <Navigate to={ONBOARDING_PATH} replace />;
    return children;
  };

  // The public site's pages have their own header and need no account.
  if (publicSite) return children;
  return (
    <HeaderSlotProvider>
      <div className={styles.page}>
        <header className={styles.header}>
          <Link to="/" className={styles.logo}>
            <svg className={styles.logoMark} viewBox="0 0 28 28" aria-hidden="true" focusable="false">
              <rect width="28" height="28" rx="8" />
              <path d="M8 20 L14 8 L20 20 M10.5 15.5 H17.5" />
            </svg>
            {t('app.name')}
          </Link>
          <HeaderSlot className={styles.headerSlot} />
          <AccountControls />
        </header>
        <main className={styles.main}>{content()}</main>
        <AuthDialog />
      </div>
    </HeaderSlotProvider>
  );
}
