import type { PresetName } from '../../../machines/layout-json.ts';
import type { WorkspaceTab } from './tab-registry.ts';
import { WINDOW_ITEMS } from './tab-registry.ts';

// Every command of the workspace's menus as one object (as excalidraw's actions): its label,
// when it is enabled, what it does, and its keyboard shortcut if it has one. The menu bar
// renders these; a shortcut or a command palette entry is the same object.

/** What the commands' rules read: facts selected from the machines and the record. */
export interface WorkspaceFacts {
  canStart: boolean;
  canStop: boolean;
  canRestart: boolean;
  /** The conversation has a git provider and a repository to push to. */
  canPush: boolean;
  /** The DevOps agent's live deployment of each environment (Window → App opens it). */
  deployed: Record<DeployedEnvironment, boolean>;
}

export type DeployedEnvironment = 'staging' | 'production';

/** What the commands act on: events for the machines and the few effects the view owns. */
export interface WorkspaceCommands {
  openTab(tab: WorkspaceTab): void;
  selectLayout(layout: PresetName | `saved:${string}`): void;
  openSaveDialog(): void;
  resetLayout(): void;
  /** Acts on the tab the user is in. */
  toggleMaximise(): void;
  popOut(): void;
  /** Keyboard tiling: 1 is the next tile or tab (to the right), -1 the previous one. */
  focusTile(step: 1 | -1): void;
  moveTab(step: 1 | -1): void;
  cycleTab(step: 1 | -1): void;
  showShortcuts(): void;
  /** The Infrastructure Deployments dialog. */
  openDeployments(): void;
  /** The deployed app of that environment, in a new browser tab. */
  openDeployed(environment: DeployedEnvironment): void;
  start(): void;
  stop(): void;
  restart(): void;
  push(): void;
}

export type MenuName = 'file' | 'window' | 'app' | 'layout' | 'runtime';

export interface WorkspaceAction {
  id: string;
  menu: MenuName;
  /** An i18n key of the `workspace` namespace. */
  label: string;
  /** Shown under the label while the action is disabled: why. */
  disabledNote?: string;
  enabled(facts: WorkspaceFacts): boolean;
  perform(commands: WorkspaceCommands): void;
  /** `Alt+Shift+M`-style: modifiers, then the key as KeyboardEvent.code names it without 'Key'. */
  shortcut?: string;
  /** The menu's group: groups are drawn apart (the Layout menu's saved layouts come between its two). */
  group?: 'first' | 'last';
}

const always = () => true;

/** The Layout menu's presets (the spec's; 'default' is what Reset returns to only when chosen elsewhere). */
const MENU_PRESETS: readonly PresetName[] = ['pm', 'developer', 'user'];

export const WORKSPACE_ACTIONS: readonly WorkspaceAction[] = [
  {
    id: 'push',
    menu: 'file',
    label: 'menu.pushToRepository',
    disabledNote: 'menu.pushNeedsRepository',
    enabled: (facts) => facts.canPush,
    perform: (commands) => commands.push(),
  },
  {
    id: 'deployments',
    menu: 'file',
    label: 'menu.deployments',
    enabled: always,
    perform: (commands) => commands.openDeployments(),
  },
  ...WINDOW_ITEMS.map(({ item, tab }): WorkspaceAction => ({
    id: `open-${item}`,
    menu: 'window',
    label: item === 'served' ? 'tabs.app' : `tabs.${item}`,
    enabled: always,
    perform: (commands) => commands.openTab(tab),
  })),
  {
    id: 'app-staging',
    menu: 'app',
    label: 'menu.staging',
    disabledNote: 'menu.appNotDeployed',
    enabled: (facts) => facts.deployed.staging,
    perform: (commands) => commands.openDeployed('staging'),
  },
  {
    id: 'app-production',
    menu: 'app',
    label: 'menu.production',
    disabledNote: 'menu.appNotDeployed',
    enabled: (facts) => facts.deployed.production,
    perform: (commands) => commands.openDeployed('production'),
  },
  {
    id: 'app-development',
    menu: 'app',
    label: 'menu.development',
    enabled: always,
    perform: (commands) => commands.openTab('app'),
  },
  ...MENU_PRESETS.map((preset): WorkspaceAction => ({
    id: `layout-${preset}`,
    menu: 'layout',
    label: `layout.presets.${preset}`,
    enabled: always,
    perform: (commands) => commands.selectLayout(preset),
  })),
  {
    id: 'save-layout',
    menu: 'layout',
    label: 'layout.saveCurrent',
    enabled: always,
    perform: (commands) => commands.openSaveDialog(),
    group: 'last',
  },
  {
    id: 'reset-layout',
    menu: 'layout',
    label: 'layout.reset',
    enabled: always,
    perform: (commands) => commands.resetLayout(),
    group: 'last',
  },
  {
    id: 'maximise',
    menu: 'layout',
    label: 'layout.maximise',
    enabled: always,
    perform: (commands) => commands.toggleMaximise(),
    shortcut: 'Alt+Shift+M',
    group: 'last',
  },
  ...([1, -1] as const).flatMap((step): WorkspaceAction[] => {
    const next = step === 1;
    return [
      {
        id: next ? 'focus-next-tile' : 'focus-previous-tile',
        menu: 'layout',
        label: next ? 'layout.focusNextTile' : 'layout.focusPreviousTile',
        enabled: always,
        perform: (commands) => commands.focusTile(step),
        shortcut: next ? 'Alt+Shift+ArrowRight' : 'Alt+Shift+ArrowLeft',
        group: 'last',
      },
      {
        id: next ? 'move-tab-next' : 'move-tab-previous',
        menu: 'layout',
        label: next ? 'layout.moveTabNext' : 'layout.moveTabPrevious',
        enabled: always,
        perform: (commands) => commands.moveTab(step),
        shortcut: next ? 'Ctrl+Alt+Shift+ArrowRight' : 'Ctrl+Alt+Shift+ArrowLeft',
        group: 'last',
      },
      {
        id: next ? 'next-tab' : 'previous-tab',
        menu: 'layout',
        label: next ? 'layout.nextTab' : 'layout.previousTab',
        enabled: always,
        perform: (commands) => commands.cycleTab(step),
        shortcut: next ? 'Alt+Shift+BracketRight' : 'Alt+Shift+BracketLeft',
        group: 'last',
      },
    ];
  }),
  {
    id: 'shortcuts',
    menu: 'layout',
    label: 'menu.shortcuts',
    enabled: always,
    perform: (commands) => commands.showShortcuts(),
    shortcut: 'Shift+Slash',
    group: 'last',
  },
  {
    id: 'pop-out',
    menu: 'layout',
    label: 'layout.popOut',
    enabled: always,
    perform: (commands) => commands.popOut(),
    group: 'last',
  },
  {
    id: 'start',
    menu: 'runtime',
    label: 'menu.start',
    enabled: (facts) => facts.canStart,
    perform: (commands) => commands.start(),
  },
  {
    id: 'stop',
    menu: 'runtime',
    label: 'menu.stop',
    enabled: (facts) => facts.canStop,
    perform: (commands) => commands.stop(),
  },
  {
    id: 'restart',
    menu: 'runtime',
    label: 'menu.restart',
    enabled: (facts) => facts.canRestart,
    perform: (commands) => commands.restart(),
  },
];

export const actionsOf = (menu: MenuName) => WORKSPACE_ACTIONS.filter((action) => action.menu === menu);

/** The shortcut a key press makes, in the actions' notation (`Alt+Shift+M`). */
export function shortcutOf(event: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'code'>): string {
  const key = event.code.replace(/^Key|^Digit/, '');
  return [event.ctrlKey && 'Ctrl', event.metaKey && 'Meta', event.altKey && 'Alt', event.shiftKey && 'Shift', key]
    .filter(Boolean)
    .join('+');
}

/** A shortcut with its keys renamed; `?` for Shift+/ (the key it types). */
function renamedKeys(shortcut: string, names: Record<string, string>): string {
  if (shortcut === 'Shift+Slash') return '?';
  return shortcut
    .split('+')
    .map((part) => names[part] ?? part)
    .join('+');
}

const KEY_LABELS: Record<string, string> = {
  ArrowRight: '→',
  ArrowLeft: '←',
  BracketRight: ']',
  BracketLeft: '[',
  Slash: '/',
};

/** A shortcut as people read it: `Alt+Shift+→`. */
export const shortcutLabel = (shortcut: string): string => renamedKeys(shortcut, KEY_LABELS);

const ARIA_KEYS: Record<string, string> = { Ctrl: 'Control', BracketRight: ']', BracketLeft: '[', Slash: '/' };

/** A shortcut as `aria-keyshortcuts` names it (the key values of UI Events): `Control+Alt+Shift+ArrowRight`. */
export const ariaKeyShortcut = (shortcut: string): string => renamedKeys(shortcut, ARIA_KEYS);

/** The enabled action a key press asks for, if any. */
export function actionForShortcut(
  event: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'code'> & { typing?: boolean },
  facts: WorkspaceFacts,
): WorkspaceAction | null {
  // While typing, a key without Alt, Ctrl or Meta is text ('?'), not a command.
  if (event.typing && !event.altKey && !event.ctrlKey && !event.metaKey) return null;
  const pressed = shortcutOf(event);
  return WORKSPACE_ACTIONS.find((action) => action.shortcut === pressed && action.enabled(facts)) ?? null;
}
