import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationChange } from '../../../machines/conversation-change.ts';
import { selectCanRestart, selectCanStart, selectCanStop } from '../../../machines/conversation.ts';
import { selectLayoutChoices } from '../../../machines/layout.ts';
import { savedLayoutName, type PresetName } from '../../../machines/layout-json.ts';
import type { ConversationStream } from '../../realtime/types.ts';
import { hasGitTarget, suggestionPrompt } from '../../rules/git-suggestions.ts';
import {
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
  toast,
} from '../../ui/index.ts';
import { FeaturesDialog } from './FeaturesDialog.tsx';
import type { ScreenModel } from './screen-model.ts';
import { WINDOW_ITEMS } from './tab-registry.ts';
import type { ConversationActor, LayoutActor } from './use-workspace.ts';
import * as styles from './workspace.css.ts';
import type { Conversation } from '../../../openapi/types.ts';

/** The Layout menu's presets (the spec's; 'default' is what Reset returns to only when chosen elsewhere). */
const MENU_PRESETS: readonly PresetName[] = ['pm', 'developer', 'user'];

interface MenuBarProps {
  conversation: ConversationActor;
  /** The conversation as the stream last described it (title, repository, git provider). */
  record: Conversation;
  /** Where the File menu's push request goes. */
  stream: ConversationStream;
  layout: LayoutActor;
  screen: ScreenModel;
  /** Stop and rename, made as from the sidebar (machines/conversation-change.ts). */
  change: ChangeConversation;
}

type ChangeConversation = (change: ConversationChange) => void;

/** Not modal: the page behind stays in the accessibility tree (no aria-hidden over focusable content); Escape and a click outside still close it. */
function Menu({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger>
        <Button tone="ghost" size="sm">
          {label}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>{children}</DropdownMenuContent>
    </DropdownMenu>
  );
}

/** A menu item with a note under its label (why it is unavailable), read as part of its name. */
function NotedItem({ label, note, disabled, onSelect }: { label: string; note: string | null; disabled: boolean; onSelect?: () => void }) {
  return (
    <DropdownMenuItem disabled={disabled} onSelect={onSelect}>
      <span className={styles.itemText}>
        <span>{label}</span>
        {note === null ? null : <span className={styles.itemNote}>{note}</span>}
      </span>
    </DropdownMenuItem>
  );
}

function ConversationTitle({ conversationId, title, change }: { conversationId: string; title: string; change: ChangeConversation }) {
  const { t } = useTranslation('workspace');
  const [editing, setEditing] = useState(false);
  const finish = (raw: string | null) => {
    setEditing(false);
    if (raw !== null) change({ kind: 'rename', conversationId, current: title, title: raw });
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
        aria-label={t('page.titleLabel')}
        defaultValue={title}
        autoFocus
        onKeyDown={onKeyDown}
        onBlur={(event) => finish(event.currentTarget.value)}
      />
    );
  return (
    <button type="button" className={styles.titleButton} onClick={() => setEditing(true)} aria-label={t('page.rename', { title })}>
      {title}
    </button>
  );
}

/**
 * The title and the spec's menus: File (push, deployments), Window (the tabs, the App submenu),
 * Layout (presets, saved layouts, reset, maximise, pop-out), Runtime, and Feature (its dialog).
 */
export function WorkspaceMenuBar({ conversation, record, stream, layout, screen, change }: MenuBarProps) {
  const { t } = useTranslation(['workspace', 'chat']);
  const choices = useSelector(layout, selectLayoutChoices);
  const canStop = useSelector(conversation, selectCanStop);
  const canStart = useSelector(conversation, selectCanStart);
  const canRestart = useSelector(conversation, selectCanRestart);
  const savedNames = choices.flatMap((choice) => {
    const name = savedLayoutName(choice);
    return name === null ? [] : [name];
  });
  const withActive = (type: 'TOGGLE_MAXIMISE' | 'POP_OUT') => {
    const component = screen.activeComponent();
    if (component) layout.send({ type, component });
  };
  const canPush = hasGitTarget(record);
  // The chat's push-to-branch suggestion, sent as the user's message.
  const push = () => {
    const prompt = suggestionPrompt('push', record);
    stream.send({ action: 'message', args: { content: t(`chat:${prompt.key}`, prompt.params), image_urls: [], timestamp: new Date().toISOString() } });
    toast.success(t('menu.pushSent'));
  };
  const [featuresOpen, setFeaturesOpen] = useState(false);
  // New Feature: the chat's message box takes focus once the dialog (and its focus trap) is gone.
  const focusChatNext = useRef(false);
  const messageBoxLabel = t('chat:actions.messageLabel');
  useEffect(() => {
    if (featuresOpen || !focusChatNext.current) return;
    focusChatNext.current = false;
    screen.focusField('chat', messageBoxLabel);
  }, [featuresOpen, screen, messageBoxLabel]);
  const newFeature = () => {
    focusChatNext.current = true;
    setFeaturesOpen(false);
    layout.send({ type: 'OPEN_TAB', component: 'chat' });
  };

  return (
    <nav className={styles.menuBar} aria-label={t('menu.bar')}>
      <div className={styles.title}>
        <ConversationTitle conversationId={record.conversation_id} title={record.title} change={change} />
      </div>
      <Menu label={t('menu.file')}>
        <NotedItem label={t('menu.pushToRepository')} note={canPush ? null : t('menu.pushNeedsRepository')} disabled={!canPush} onSelect={push} />
        <NotedItem label={t('menu.deployments')} note={t('menu.deploymentsUnavailable')} disabled />
      </Menu>
      <Menu label={t('menu.window')}>
        {WINDOW_ITEMS.map(({ item, tab }) => (
          <DropdownMenuItem key={item} onSelect={() => layout.send({ type: 'OPEN_TAB', component: tab })}>
            {item === 'served' ? t('menu.served') : t(`tabs.${item}`)}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSub>
          <DropdownMenuSubTrigger>{t('menu.app')}</DropdownMenuSubTrigger>
          <DropdownMenuSubContent>
            {/* Staging and production are deployments, which only the DevOps agent makes. */}
            <NotedItem label={t('menu.staging')} note={t('menu.appDeploymentUnavailable')} disabled />
            <NotedItem label={t('menu.production')} note={t('menu.appDeploymentUnavailable')} disabled />
            <DropdownMenuItem onSelect={() => layout.send({ type: 'OPEN_TAB', component: 'app' })}>{t('menu.development')}</DropdownMenuItem>
          </DropdownMenuSubContent>
        </DropdownMenuSub>
      </Menu>
      <Menu label={t('menu.layout')}>
        {MENU_PRESETS.map((preset) => (
          <DropdownMenuItem key={preset} onSelect={() => layout.send({ type: 'SELECT', layout: preset })}>
            {t(`layout.presets.${preset}`)}
          </DropdownMenuItem>
        ))}
        {savedNames.length > 0 ? <DropdownMenuSeparator /> : null}
        {savedNames.map((name) => (
          <DropdownMenuItem key={name} onSelect={() => layout.send({ type: 'SELECT', layout: `saved:${name}` })}>
            {t('layout.saved', { name })}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => layout.send({ type: 'OPEN_SAVE_DIALOG' })}>{t('layout.saveCurrent')}</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => layout.send({ type: 'RESET' })}>{t('layout.reset')}</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => withActive('TOGGLE_MAXIMISE')}>{t('layout.maximise')}</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => withActive('POP_OUT')}>{t('layout.popOut')}</DropdownMenuItem>
      </Menu>
      <Menu label={t('menu.runtime')}>
        <DropdownMenuItem disabled={!canStart} onSelect={() => conversation.send({ type: 'START' })}>
          {t('menu.start')}
        </DropdownMenuItem>
        <DropdownMenuItem disabled={!canStop} onSelect={() => change({ kind: 'stop', conversationId: record.conversation_id })}>
          {t('menu.stop')}
        </DropdownMenuItem>
        <DropdownMenuItem disabled={!canRestart} onSelect={() => conversation.send({ type: 'RESTART' })}>
          {t('menu.restart')}
        </DropdownMenuItem>
      </Menu>
      <Button tone="ghost" size="sm" aria-haspopup="dialog" onClick={() => setFeaturesOpen(true)}>
        {t('menu.feature')}
      </Button>
      <FeaturesDialog open={featuresOpen} onOpenChange={setFeaturesOpen} onNewFeature={newFeature} />
    </nav>
  );
}
