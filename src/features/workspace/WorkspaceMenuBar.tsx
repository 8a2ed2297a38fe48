import { useSelector } from '@xstate/react';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { selectCanStop, selectConversation } from '../../../machines/conversation.ts';
import { savedLayoutName, selectLayoutChoices, type PresetName } from '../../../machines/layout.ts';
import { Button, DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '../../ui/index.ts';
import type { ScreenModel } from './screen-model.ts';
import { WINDOW_TABS } from './tab-registry.ts';
import type { ConversationActor, LayoutActor } from './use-workspace.ts';
import * as styles from './workspace.css.ts';

/** The Layout menu's presets (the spec's; 'default' is what Reset returns to only when chosen elsewhere). */
const MENU_PRESETS: readonly PresetName[] = ['pm', 'developer', 'user'];

interface MenuBarProps {
  conversation: ConversationActor;
  /** The title shown (the agent's newer one, if any). */
  title: string;
  layout: LayoutActor;
  screen: ScreenModel;
}

function Menu({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger>
        <Button tone="ghost" size="sm">
          {label}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>{children}</DropdownMenuContent>
    </DropdownMenu>
  );
}

function ConversationTitle({ conversation, title }: { conversation: ConversationActor; title: string }) {
  const { t } = useTranslation('conversations');
  const [editing, setEditing] = useState(false);
  const finish = (raw: string | null) => {
    setEditing(false);
    if (raw !== null) conversation.send({ type: 'RENAME', title: raw });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !event.nativeEvent.isComposing) event.currentTarget.blur();
    if (event.key === 'Escape') {
      event.preventDefault();
      finish(null);
    }
  };
  if (editing)
    return (
      <input
        className={styles.titleInput}
        aria-label={t('workspace.titleLabel')}
        defaultValue={title}
        autoFocus
        onKeyDown={onKeyDown}
        onBlur={(event) => finish(event.currentTarget.value)}
      />
    );
  return (
    <button type="button" className={styles.titleButton} onClick={() => setEditing(true)} aria-label={t('workspace.rename', { title })}>
      {title}
    </button>
  );
}

/** Title, Window, Layout and Runtime menus, layout reset, maximise and pop-out. */
export function WorkspaceMenuBar({ conversation, title, layout, screen }: MenuBarProps) {
  const { t } = useTranslation(['conversations', 'workspace']);
  const choices = useSelector(layout, selectLayoutChoices);
  const canStop = useSelector(conversation, selectCanStop);
  const canStart = useSelector(conversation, (snapshot) => snapshot.matches({ ready: 'idle' }) && selectConversation(snapshot)?.status === 'STOPPED');
  const canRestart = useSelector(conversation, (snapshot) => snapshot.matches({ ready: 'idle' }));
  const savedNames = choices.flatMap((choice) => {
    const name = savedLayoutName(choice);
    return name === null ? [] : [name];
  });
  const withActive = (type: 'TOGGLE_MAXIMISE' | 'POP_OUT') => {
    const component = screen.activeComponent();
    if (component) layout.send({ type, component });
  };

  return (
    <nav className={styles.menuBar} aria-label={t('workspace.menuBar')}>
      <div className={styles.title}>
        <ConversationTitle conversation={conversation} title={title} />
      </div>
      <Menu label={t('workspace.window')}>
        {WINDOW_TABS.map((tab) => (
          <DropdownMenuItem key={tab} onSelect={() => layout.send({ type: 'OPEN_TAB', component: tab })}>
            {t(`workspace:tabs.${tab}`)}
          </DropdownMenuItem>
        ))}
      </Menu>
      <Menu label={t('workspace.layout')}>
        {MENU_PRESETS.map((preset) => (
          <DropdownMenuItem key={preset} onSelect={() => layout.send({ type: 'SELECT', layout: preset })}>
            {t(`workspace:layout.presets.${preset}`)}
          </DropdownMenuItem>
        ))}
        {savedNames.length > 0 ? <DropdownMenuSeparator /> : null}
        {savedNames.map((name) => (
          <DropdownMenuItem key={name} onSelect={() => layout.send({ type: 'SELECT', layout: `saved:${name}` })}>
            {t('workspace:layout.saved', { name })}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => layout.send({ type: 'OPEN_SAVE_DIALOG' })}>{t('workspace:layout.saveCurrent')}</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => layout.send({ type: 'RESET' })}>{t('workspace:layout.reset')}</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => withActive('TOGGLE_MAXIMISE')}>{t('workspace:layout.maximise')}</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => withActive('POP_OUT')}>{t('workspace:layout.popOut')}</DropdownMenuItem>
      </Menu>
      <Menu label={t('workspace.runtime')}>
        <DropdownMenuItem disabled={!canStart} onSelect={() => conversation.send({ type: 'START' })}>
          {t('workspace.start')}
        </DropdownMenuItem>
        <DropdownMenuItem disabled={!canStop} onSelect={() => conversation.send({ type: 'STOP' })}>
          {t('workspace.stop')}
        </DropdownMenuItem>
        <DropdownMenuItem disabled={!canRestart} onSelect={() => conversation.send({ type: 'RESTART' })}>
          {t('workspace.restart')}
        </DropdownMenuItem>
      </Menu>
    </nav>
  );
}
