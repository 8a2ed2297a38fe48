export type { TabProps, TabViews } from './tab-registry.ts';
export { WorkspacePage } from './WorkspacePage.tsx';
