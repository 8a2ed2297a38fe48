export { SidebarLayout } from './SidebarLayout.tsx';
export { conversationKeys } from './queries.ts';
export { conversationRequests, layoutRequests, type Conversation } from './requests.ts';
export { answerOnce, prefetchConversation, takePrefetched, type Prefetched } from './prefetch.ts';
