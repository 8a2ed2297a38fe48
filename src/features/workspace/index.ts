export type { TabProps, TabViews } from './tab-registry.ts';
export { WorkspacePage } from './WorkspacePage.tsx';
export { prefetchConversation } from './prefetch.ts';
