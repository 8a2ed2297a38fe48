import { useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { Suspense, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationChange } from '../../../machines/conversation-change.ts';
import { selectCanRestart, selectCanStart, selectCanStop } from '../../../machines/conversation.ts';
import { selectLayoutChoices } from '../../../machines/layout.ts';
import { savedLayoutName } from '../../../machines/layout-json.ts';
import { deploymentsQuery } from '../../api/queries.ts';
import { requests } from '../../app/services.ts';
import type { ConversationStream } from '../../realtime/types.ts';
import { webAppUrl } from '../../rules/event-display.ts';
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
  lazyRetrying,
} from '../../ui/index.ts';
import { FeaturesDialog } from './FeaturesDialog.tsx';
import type { ScreenModel } from './screen-model.ts';
import { ShortcutsDialog } from './ShortcutsDialog.tsx';

// The deployments dialog, its calls and its texts load when File → Deployments is first chosen.
const DeploymentsDialog = lazyRetrying(() =>
  import('../deployments/index.ts').then((feature) => ({ default: feature.DeploymentsDialog })),
);
import {
  actionForShortcut,
  shortcutLabel,
  ariaKeyShortcut,
  actionsOf,
  type MenuName,
  type WorkspaceAction,
  type WorkspaceCommands,
  type DeployedEnvironment,
  type WorkspaceFacts,
} from './workspace-actions.ts';
import type { ConversationActor, LayoutActor } from './use-workspace.ts';
import * as styles from './workspace.css.ts';
import type { Conversation } from '../../../openapi/types.ts';

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
function NotedItem({
  label,
  note,
  disabled,
  onSelect,
  shortcut,
}: {
  label: string;
  note: string | null;
  disabled: boolean;
  onSelect?: () => void;
  shortcut?: string | undefined;
}) {
  return (
    <DropdownMenuItem
      disabled={disabled}
      onSelect={onSelect}
      aria-keyshortcuts={shortcut === undefined ? undefined : ariaKeyShortcut(shortcut)}
    >
      <span className={styles.itemText}>
        <span>
          {label}
          {/* Shown, and announced through aria-keyshortcuts rather than as part of the item's name. */}
          {shortcut === undefined ? null : <span aria-hidden="true">{` (${shortcutLabel(shortcut)})`}</span>}
        </span>
        {note === null ? null : <span className={styles.itemNote}>{note}</span>}
      </span>
    </DropdownMenuItem>
  );
}

function ConversationTitle({
  conversationId,
  title,
  change,
}: {
  conversationId: string;
  title: string;
  change: ChangeConversation;
}) {
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
    <button
      type="button"
      className={styles.titleButton}
      onClick={() => setEditing(true)}
      aria-label={t('page.rename', { title })}
    >
      {title}
    </button>
  );
}

/** The items of one menu (or group) of the action table. */
function ActionItems({
  actions,
  facts,
  commands,
}: {
  actions: readonly WorkspaceAction[];
  facts: WorkspaceFacts;
  commands: WorkspaceCommands;
}) {
  const { t } = useTranslation('workspace');
  return actions.map((action) => {
    const enabled = action.enabled(facts);
    const note = !enabled && action.disabledNote ? t(action.disabledNote as 'menu.pushNeedsRepository') : null;
    const label = t(action.label as 'menu.start');
    return (
      <NotedItem
        key={action.id}
        label={label}
        shortcut={action.shortcut}
        note={note}
        disabled={!enabled}
        onSelect={() => action.perform(commands)}
      />
    );
  });
}

/**
 * The title and the spec's menus: File (push, deployments), Window (the tabs, the App submenu),
 * Layout (presets, saved layouts, reset, maximise, pop-out), Runtime, and Feature (its dialog).
 * Each item is an action of the table in workspace-actions.ts, and so is each keyboard shortcut.
 */
export function WorkspaceMenuBar({ conversation, record, stream, layout, screen, change }: MenuBarProps) {
  const { t } = useTranslation(['workspace', 'chat']);
  const choices = useSelector(layout, selectLayoutChoices);
  const deployments = useQuery(deploymentsQuery(requests, record.conversation_id));
  const deployedUrl = (environment: DeployedEnvironment) => {
    const url = deployments.data?.deployments.find((d) => d.environment === environment)?.url;
    return url ? webAppUrl(url, window.location) : null;
  };
  const facts: WorkspaceFacts = {
    canStop: useSelector(conversation, selectCanStop),
    canStart: useSelector(conversation, selectCanStart),
    canRestart: useSelector(conversation, selectCanRestart),
    canPush: hasGitTarget(record),
    deployed: { staging: deployedUrl('staging') !== null, production: deployedUrl('production') !== null },
  };
  const savedNames = choices.flatMap((choice) => {
    const name = savedLayoutName(choice);
    return name === null ? [] : [name];
  });
  const withActive = (type: 'TOGGLE_MAXIMISE' | 'POP_OUT') => {
    const component = screen.activeComponent();
    if (component) layout.send({ type, component });
  };
  const commands: WorkspaceCommands = {
    openTab: (component) => layout.send({ type: 'OPEN_TAB', component }),
    selectLayout: (id) => layout.send({ type: 'SELECT', layout: id }),
    openSaveDialog: () => layout.send({ type: 'OPEN_SAVE_DIALOG' }),
    resetLayout: () => layout.send({ type: 'RESET' }),
    toggleMaximise: () => withActive('TOGGLE_MAXIMISE'),
    popOut: () => withActive('POP_OUT'),
    focusTile: (step) => screen.focusTile(step),
    moveTab: (step) => screen.moveTab(step),
    cycleTab: (step) => screen.cycleTab(step),
    showShortcuts: () => setShortcutsOpen(true),
    openDeployments: () => setDeploymentsOpen(true),
    openDeployed: (environment) => {
      const url = deployedUrl(environment);
      if (url) window.open(url, '_blank', 'noopener,noreferrer');
    },
    start: () => conversation.send({ type: 'START' }),
    stop: () => change({ kind: 'stop', conversationId: record.conversation_id }),
    restart: () => conversation.send({ type: 'RESTART' }),
    // The chat's push-to-branch suggestion, sent as the user's message.
    push: () => {
      const prompt = suggestionPrompt('push', record);
      stream.send({
        action: 'message',
        args: { content: t(`chat:${prompt.key}`, prompt.params), image_urls: [], timestamp: new Date().toISOString() },
      });
      toast.success(t('menu.pushSent'));
    },
  };
  // Shortcuts read the facts and commands of the latest render.
  const latest = useRef({ facts, commands });
  useEffect(() => {
    latest.current = { facts, commands };
  });
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target !== null && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      const action = actionForShortcut(
        {
          altKey: event.altKey,
          ctrlKey: event.ctrlKey,
          metaKey: event.metaKey,
          shiftKey: event.shiftKey,
          code: event.code,
          typing,
        },
        latest.current.facts,
      );
      if (!action) return;
      event.preventDefault();
      action.perform(latest.current.commands);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const [featuresOpen, setFeaturesOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [deploymentsOpen, setDeploymentsOpen] = useState(false);
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
  const items = (menu: MenuName, group?: 'last') => (
    <ActionItems
      actions={actionsOf(menu).filter((action) => (group ? action.group === group : action.group !== 'last'))}
      facts={facts}
      commands={commands}
    />
  );

  return (
    <nav className={styles.menuBar} aria-label={t('menu.bar')}>
      <div className={styles.title}>
        <ConversationTitle conversationId={record.conversation_id} title={record.title} change={change} />
      </div>
      <Menu label={t('menu.file')}>{items('file')}</Menu>
      <Menu label={t('menu.window')}>
        {items('window')}
        <DropdownMenuSub>
          <DropdownMenuSubTrigger>{t('menu.app')}</DropdownMenuSubTrigger>
          <DropdownMenuSubContent>{items('app')}</DropdownMenuSubContent>
        </DropdownMenuSub>
      </Menu>
      <Menu label={t('menu.layout')}>
        {items('layout')}
        {savedNames.length > 0 ? <DropdownMenuSeparator /> : null}
        {savedNames.map((name) => (
          <DropdownMenuItem key={name} onSelect={() => commands.selectLayout(`saved:${name}`)}>
            {t('layout.saved', { name })}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        {items('layout', 'last')}
      </Menu>
      <Menu label={t('menu.runtime')}>{items('runtime')}</Menu>
      <Button tone="ghost" size="sm" aria-haspopup="dialog" onClick={() => setFeaturesOpen(true)}>
        {t('menu.feature')}
      </Button>
      <FeaturesDialog open={featuresOpen} onOpenChange={setFeaturesOpen} onNewFeature={newFeature} />
      <ShortcutsDialog open={shortcutsOpen} onOpenChange={setShortcutsOpen} />
      {deploymentsOpen ? (
        <Suspense fallback={null}>
          <DeploymentsDialog conversationId={record.conversation_id} onClose={() => setDeploymentsOpen(false)} />
        </Suspense>
      ) : null}
    </nav>
  );
}
