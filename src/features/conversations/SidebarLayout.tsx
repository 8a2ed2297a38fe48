import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { selectUser } from '../../../machines/session.ts';
import { SessionContext } from '../../app/session.ts';
import { Button } from '../../ui/index.ts';
import { ConversationPanel } from './ConversationPanel.tsx';
import * as styles from './sidebar.css.ts';

/** The page beside the sidebar (280 px, 64 px collapsed) and, when toggled, the 350 px conversation panel. */
export function SidebarLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('conversations');
  const session = SessionContext.useActorRef();
  const signedIn = SessionContext.useSelector((snapshot) => selectUser(snapshot) !== null);
  const [collapsed, setCollapsed] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  const label = (text: string) => (collapsed ? { 'aria-label': text, title: text } : {});

  return (
    <div className={styles.layout}>
      <nav className={collapsed ? styles.sidebarCollapsed : styles.sidebar} aria-label={t('sidebar.label')}>
        <Button
          tone="ghost"
          size="sm"
          aria-expanded={!collapsed}
          onClick={() => setCollapsed(!collapsed)}
          aria-label={collapsed ? t('sidebar.expand') : t('sidebar.collapse')}
          title={collapsed ? t('sidebar.expand') : t('sidebar.collapse')}
        >
          <span aria-hidden="true">{collapsed ? '»' : '«'}</span>
        </Button>
        {signedIn ? (
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
          <Button
            tone="ghost"
            aria-expanded={panelOpen}
            aria-controls={panelOpen ? 'conversation-panel' : undefined}
            onClick={() => setPanelOpen(!panelOpen)}
            {...label(panelOpen ? t('sidebar.hideConversations') : t('sidebar.showConversations'))}
          >
            <span aria-hidden="true">☰</span>
            {collapsed ? null : (
              <span>{panelOpen ? t('sidebar.hideConversations') : t('sidebar.showConversations')}</span>
            )}
          </Button>
        ) : null}
      </nav>
      {signedIn && panelOpen ? <ConversationPanel id="conversation-panel" /> : null}
      <div className={styles.page}>{children}</div>
    </div>
  );
}
