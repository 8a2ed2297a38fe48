import { tokenStore } from '../../app/services.ts';
import {
  createConversationStream,
  pageSocketUrl,
  type ConversationStreamOptions,
  type LiveConversationStream,
} from '../../realtime/conversation-stream.ts';
import { conversationRequests } from './requests.ts';

/** A conversation's event stream on this server: its socket on the page's host, as the signed-in user. */
export function openConversationStream(
  options: Omit<ConversationStreamOptions, 'socketUrl' | 'credentials' | 'fetchEvents'>,
): LiveConversationStream {
  const { conversationId } = options;
  return createConversationStream({
    ...options,
    socketUrl: pageSocketUrl(),
    credentials: (): Record<string, string> => {
      const token = tokenStore.read();
      return token === null ? {} : { auth_token: token };
    },
    fetchEvents: (query) => conversationRequests.events(conversationId, query),
  });
}
