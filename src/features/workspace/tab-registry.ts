import type { ComponentType } from 'react';
import { type TabComponent } from '../../../machines/layout-json.ts';
import type { ConversationStream } from '../../realtime/types.ts';
import type { Conversation } from '../../../openapi/types.ts';

export interface TabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

/** The tabs the workspace offers. */
export type WorkspaceTab = TabComponent;

const WORKSPACE_TAB_IDS: readonly WorkspaceTab[] = [
  'chat',
  'app',
  'vscode',
  'terminal',
  'jupyter',
  'browser',
  'changes',
  'devops-agent',
];

/**
 * The Window menu's items in the spec's order, each with the tab it opens: 'served' is the web
 * app tab (the spec's "app/served"), named in the menu as its tab is, App. The App submenu (staging, production, development) follows.
 */
export const WINDOW_ITEMS: readonly {
  item: Exclude<WorkspaceTab, 'app' | 'devops-agent'> | 'served' | 'devopsAgent';
  tab: WorkspaceTab;
}[] = [
  { item: 'chat', tab: 'chat' },
  { item: 'vscode', tab: 'vscode' },
  { item: 'terminal', tab: 'terminal' },
  { item: 'jupyter', tab: 'jupyter' },
  { item: 'browser', tab: 'browser' },
  { item: 'served', tab: 'app' },
  { item: 'changes', tab: 'changes' },
  { item: 'devopsAgent', tab: 'devops-agent' },
];

/** Tabs showing a framed page: kept in one place while their tiles move, so the page does not reload. */
export const FRAMED_TABS: readonly WorkspaceTab[] = ['app', 'vscode'];

export const isWorkspaceTab = (component: string | undefined): component is WorkspaceTab =>
  (WORKSPACE_TAB_IDS as readonly string[]).includes(component ?? '');

/** The chat's Refresh, offered while its socket is disconnected (the workspace restarts the conversation), and Start for a stopped one. */
type ChatProps = TabProps & { onRefresh: () => void; onStart: () => void };

/** The view of each tab; the routes supply them lazily loaded, so each tab's code loads when it is first shown. */
export type TabViews = { chat: ComponentType<ChatProps> } & Record<
  Exclude<WorkspaceTab, 'chat'>,
  ComponentType<TabProps>
>;
