export { SidebarLayout } from './SidebarLayout.tsx';
export { conversationKeys } from './queries.ts';
export { conversationRequests, layoutRequests } from './requests.ts';
export { answerOnce, prefetchConversation, takePrefetched, type Prefetched } from './prefetch.ts';
