import type { TabViews } from '../features/workspace/index.ts';
import { lazyRetrying } from '../ui/index.ts';

/** The workspace's tabs but the chat (the route's loader brings it), each loaded when it is first shown. */
export const LAZY_TAB_VIEWS: Omit<TabViews, 'chat'> = {
  app: lazyRetrying(() => import('../features/tabs/app/index.ts').then((module) => ({ default: module.AppTab }))),
  vscode: lazyRetrying(() =>
    import('../features/tabs/vscode/index.ts').then((module) => ({ default: module.VscodeTab })),
  ),
  terminal: lazyRetrying(() =>
    import('../features/tabs/terminal/index.ts').then((module) => ({ default: module.TerminalTab })),
  ),
  jupyter: lazyRetrying(() =>
    import('../features/tabs/jupyter/index.ts').then((module) => ({ default: module.JupyterTab })),
  ),
  browser: lazyRetrying(() =>
    import('../features/tabs/browser/index.ts').then((module) => ({ default: module.BrowserTab })),
  ),
  changes: lazyRetrying(() =>
    import('../features/tabs/changes/index.ts').then((module) => ({ default: module.ChangesTab })),
  ),
  'devops-agent': lazyRetrying(() =>
    import('../features/tabs/devops/index.ts').then((module) => ({ default: module.DevopsTab })),
  ),
};
