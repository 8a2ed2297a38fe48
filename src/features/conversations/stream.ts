import { setCurrentUserBalance } from '../../api/queries.ts';
import { queryClient, socketCredentials } from '../../app/services.ts';
import {
  createConversationStream,
  pageSocketUrl,
  type ConversationStreamOptions,
  type LiveConversationStream,
} from '../../realtime/conversation-stream.ts';
import { conversationRequests } from './requests.ts';

/**
 * A conversation's event stream on this server: its socket on the page's host, as the signed-in
 * user, whose balance the socket keeps current in the query cache.
 */
export function openConversationStream(
  options: Omit<ConversationStreamOptions, 'socketUrl' | 'credentials' | 'fetchEvents'>,
): LiveConversationStream {
  const { conversationId } = options;
  return createConversationStream({
    ...options,
    socketUrl: pageSocketUrl(),
    credentials: socketCredentials,
    fetchEvents: (query) => conversationRequests.events(conversationId, query),
    onBalance: (balance) => setCurrentUserBalance(queryClient, balance),
  });
}
