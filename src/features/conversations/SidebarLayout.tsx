import { Link, useRouterState } from '@tanstack/react-router';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useClientConfig, useCurrentUser, useEmailUnverified } from '../../app/hooks.ts';
import { SessionContext } from '../../app/session.ts';
import { readSidebarCollapsed, keepSidebarCollapsed } from '../../app/local-data.ts';
import { Button, useNarrowScreen } from '../../ui/index.ts';
import { ConversationPanel } from './ConversationPanel.tsx';
import * as styles from './sidebar.css.ts';

/**
 * The page beside the sidebar (280 px, 64 px collapsed, the choice kept in the browser) and, when
 * toggled, the 350 px conversation panel. On a narrow screen the sidebar is a drawer over the page,
 * opened from a menu button and closed by choosing something, its backdrop or Escape.
 */
export function SidebarLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('conversations');
  const session = SessionContext.useActorRef();
  const signedIn = useCurrentUser() !== null;
  // Spec §6: while the email is unverified the navigation is disabled (Settings stays, for its User tab).
  const locked = useEmailUnverified();
  const showMicroagents = useClientConfig()?.FEATURE_FLAGS.HIDE_MICROAGENT_MANAGEMENT === false;
  const lockedHint = locked ? { title: t('sidebar.navigationLocked') } : {};
  const narrow = useNarrowScreen();
  const [collapsedWide, setCollapsed] = useState(readSidebarCollapsed);
  // The drawer is open at the page it was opened on: choosing another page closes it.
  const [drawerOpenAt, setDrawerOpenAt] = useState<string | null>(null);
  const [panelOpen, setPanelOpen] = useState(false);
  const collapsed = collapsedWide && !narrow;
  const label = (text: string) => (collapsed ? { 'aria-label': text, title: text } : {});
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const drawerOpen = narrow && drawerOpenAt === pathname;
  const setDrawerOpen = (open: boolean) => setDrawerOpenAt(open ? pathname : null);
  const toggleCollapsed = () => {
    setCollapsed(!collapsed);
    keepSidebarCollapsed(!collapsed);
  };
  const closeDrawer = () => {
    setDrawerOpen(false);
    setPanelOpen(false);
  };
  const drawerShown = !narrow || drawerOpen;
  // Escape closes the open drawer wherever the focus is.
  useEffect(() => {
    if (!drawerOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setDrawerOpenAt(null);
      setPanelOpen(false);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [drawerOpen]);

  return (
    <div className={narrow ? styles.layoutNarrow : styles.layout}>
      {narrow ? (
        <div className={styles.drawerBar}>
          <Button
            tone="ghost"
            size="sm"
            aria-expanded={drawerOpen}
            aria-controls="sidebar"
            onClick={() => setDrawerOpen(!drawerOpen)}
            aria-label={t('sidebar.openMenu')}
          >
            <span aria-hidden="true">☰</span>
          </Button>
        </div>
      ) : null}
      {narrow && drawerOpen ? (
        <button type="button" className={styles.backdrop} aria-label={t('sidebar.closeMenu')} onClick={closeDrawer} />
      ) : null}
      {drawerShown ? (
        <nav
          id="sidebar"
          className={narrow ? styles.drawer : collapsed ? styles.sidebarCollapsed : styles.sidebar}
          aria-label={t('sidebar.label')}
        >
          {narrow ? null : (
            <Button
              tone="ghost"
              size="sm"
              aria-expanded={!collapsed}
              onClick={toggleCollapsed}
              aria-label={collapsed ? t('sidebar.expand') : t('sidebar.collapse')}
              title={collapsed ? t('sidebar.expand') : t('sidebar.collapse')}
            >
              <span aria-hidden="true">{collapsed ? '»' : '«'}</span>
            </Button>
          )}
          {signedIn && locked ? (
            <Button tone="secondary" disabled {...label(t('sidebar.newConversation'))} {...lockedHint}>
              <span aria-hidden="true">+</span>
              {collapsed ? null : <span>{t('sidebar.newConversation')}</span>}
            </Button>
          ) : signedIn ? (
            <Button asChild tone="secondary" {...label(t('sidebar.newConversation'))}>
              <Link to="/dashboard">
                <span aria-hidden="true">+</span>
                {collapsed ? null : <span>{t('sidebar.newConversation')}</span>}
              </Link>
            </Button>
          ) : (
            <Button
              tone="secondary"
              onClick={() => session.send({ type: 'OPEN_SIGN_IN' })}
              {...label(t('sidebar.signIn'))}
            >
              <span aria-hidden="true">→</span>
              {collapsed ? null : <span>{t('sidebar.signIn')}</span>}
            </Button>
          )}
          {signedIn ? (
            <Button asChild tone="ghost" {...label(t('sidebar.settings'))}>
              <Link to="/settings">
                <span aria-hidden="true">⚙</span>
                {collapsed ? null : <span>{t('sidebar.settings')}</span>}
              </Link>
            </Button>
          ) : null}
          {signedIn && showMicroagents ? (
            locked ? (
              <Button tone="ghost" disabled {...label(t('sidebar.microagents'))} {...lockedHint}>
                <span aria-hidden="true">✦</span>
                {collapsed ? null : <span>{t('sidebar.microagents')}</span>}
              </Button>
            ) : (
              <Button asChild tone="ghost" {...label(t('sidebar.microagents'))}>
                <Link to="/microagent-management">
                  <span aria-hidden="true">✦</span>
                  {collapsed ? null : <span>{t('sidebar.microagents')}</span>}
                </Link>
              </Button>
            )
          ) : null}
          {signedIn ? (
            <Button
              tone="ghost"
              aria-expanded={panelOpen}
              aria-controls={panelOpen ? 'conversation-panel' : undefined}
              disabled={locked}
              onClick={() => setPanelOpen(!panelOpen)}
              {...label(panelOpen ? t('sidebar.hideConversations') : t('sidebar.showConversations'))}
              {...lockedHint}
            >
              <span aria-hidden="true">☰</span>
              {collapsed ? null : (
                <span>{panelOpen ? t('sidebar.hideConversations') : t('sidebar.showConversations')}</span>
              )}
            </Button>
          ) : null}
        </nav>
      ) : null}
      {signedIn && !locked && panelOpen && drawerShown ? (
        <div className={narrow ? styles.panelOverDrawer : styles.panelBeside}>
          <ConversationPanel id="conversation-panel" />
        </div>
      ) : null}
      <div className={styles.page}>{children}</div>
    </div>
  );
}
