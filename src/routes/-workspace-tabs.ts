import { lazy } from 'react';
import type { TabViews } from '../features/workspace/index.ts';

// Every preset layout opens with the chat: its code loads with the route, beside the conversation's
// requests, rather than after the layout has rendered its tab.
const chat = import('../features/chat/index.ts');

/** The workspace's tabs, each loaded when it is first shown (the chat at once). */
export const WORKSPACE_TABS: TabViews = {
  chat: lazy(() => chat.then((module) => ({ default: module.ChatPanel }))),
  app: lazy(() => import('../features/tabs/app/index.ts').then((module) => ({ default: module.AppTab }))),
  vscode: lazy(() => import('../features/tabs/vscode/index.ts').then((module) => ({ default: module.VscodeTab }))),
  terminal: lazy(() => import('../features/tabs/terminal/index.ts').then((module) => ({ default: module.TerminalTab }))),
  jupyter: lazy(() => import('../features/tabs/jupyter/index.ts').then((module) => ({ default: module.JupyterTab }))),
  browser: lazy(() => import('../features/tabs/browser/index.ts').then((module) => ({ default: module.BrowserTab }))),
  changes: lazy(() => import('../features/tabs/changes/index.ts').then((module) => ({ default: module.ChangesTab }))),
};
