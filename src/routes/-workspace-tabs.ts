import { lazy } from 'react';
import type { TabViews } from '../features/workspace/index.ts';

/** The workspace's tabs but the chat (the route's loader brings it), each loaded when it is first shown. */
export const LAZY_TAB_VIEWS: Omit<TabViews, 'chat'> = {
  app: lazy(() => import('../features/tabs/app/index.ts').then((module) => ({ default: module.AppTab }))),
  vscode: lazy(() => import('../features/tabs/vscode/index.ts').then((module) => ({ default: module.VscodeTab }))),
  terminal: lazy(() =>
    import('../features/tabs/terminal/index.ts').then((module) => ({ default: module.TerminalTab })),
  ),
  jupyter: lazy(() => import('../features/tabs/jupyter/index.ts').then((module) => ({ default: module.JupyterTab }))),
  browser: lazy(() => import('../features/tabs/browser/index.ts').then((module) => ({ default: module.BrowserTab }))),
  changes: lazy(() => import('../features/tabs/changes/index.ts').then((module) => ({ default: module.ChangesTab }))),
  'devops-agent': lazy(() =>
    import('../features/tabs/devops/index.ts').then((module) => ({ default: module.DevopsTab })),
  ),
};
