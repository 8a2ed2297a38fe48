export { SidebarLayout } from './SidebarLayout.tsx';
export { useConversationChanges } from './changes.ts';
export { conversationRequests, layoutRequests } from './requests.ts';
export { answerOnce, takePrefetched, type Prefetched } from './prefetch.ts';
export { conversationQuery, newestEventsQuery } from './queries.ts';
export { openConversationStream } from './stream.ts';
export { MicroagentContent, MicroagentEntry } from './MicroagentEntry.tsx';
