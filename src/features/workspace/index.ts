export { workspaceSearch, type WorkspaceSearch } from './route-search.ts';
export type { TabProps, TabViews } from './tab-registry.ts';
export { WorkspacePage } from './WorkspacePage.tsx';
