import { lazy } from 'react';
import type { TabViews } from '../features/workspace/index.ts';

/** The workspace's tabs, each loaded when it is first shown. */
export const WORKSPACE_TABS: TabViews = {
  chat: lazy(() => import('../features/chat/index.ts').then((module) => ({ default: module.ChatPanel }))),
  app: lazy(() => import('../features/tabs/app/index.ts').then((module) => ({ default: module.AppTab }))),
  vscode: lazy(() => import('../features/tabs/vscode/index.ts').then((module) => ({ default: module.VscodeTab }))),
  terminal: lazy(() => import('../features/tabs/terminal/index.ts').then((module) => ({ default: module.TerminalTab }))),
  jupyter: lazy(() => import('../features/tabs/jupyter/index.ts').then((module) => ({ default: module.JupyterTab }))),
  browser: lazy(() => import('../features/tabs/browser/index.ts').then((module) => ({ default: module.BrowserTab }))),
  changes: lazy(() => import('../features/tabs/changes/index.ts').then((module) => ({ default: module.ChangesTab }))),
};
