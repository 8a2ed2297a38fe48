import { pageTexts } from '../app/i18n.ts';
import type { TabViews } from '../features/workspace/index.ts';
import { lazyRetrying } from '../ui/index.ts';

const tabTexts = pageTexts('tabs');
/** A tab's code, its texts (not in the first load) asked for beside it. */
const tabView: typeof lazyRetrying = (load) =>
  lazyRetrying(() => Promise.all([load(), tabTexts()]).then(([module]) => module));

/** The workspace's tabs but the chat (the route's loader brings it), each loaded when it is first shown. */
export const LAZY_TAB_VIEWS: Omit<TabViews, 'chat'> = {
  app: tabView(() => import('../features/tabs/app/index.ts').then((module) => ({ default: module.AppTab }))),
  vscode: tabView(() => import('../features/tabs/vscode/index.ts').then((module) => ({ default: module.VscodeTab }))),
  terminal: tabView(() =>
    import('../features/tabs/terminal/index.ts').then((module) => ({ default: module.TerminalTab })),
  ),
  jupyter: tabView(() =>
    import('../features/tabs/jupyter/index.ts').then((module) => ({ default: module.JupyterTab })),
  ),
  browser: tabView(() =>
    import('../features/tabs/browser/index.ts').then((module) => ({ default: module.BrowserTab })),
  ),
  changes: tabView(() =>
    import('../features/tabs/changes/index.ts').then((module) => ({ default: module.ChangesTab })),
  ),
  'devops-agent': tabView(() =>
    import('../features/tabs/devops/index.ts').then((module) => ({ default: module.DevopsTab })),
  ),
};
