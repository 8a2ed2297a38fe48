export { SidebarLayout } from './SidebarLayout.tsx';
export { conversationRequests, layoutRequests } from './requests.ts';
export { answerOnce, prefetchConversation, takePrefetched, type Prefetched } from './prefetch.ts';
