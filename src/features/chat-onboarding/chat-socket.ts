import { fromCallback } from 'xstate';
import type { ChatSocketCommand, ChatSocketReport, OnboardingChat } from '../../../machines/chat-onboarding.ts';
import type { ConnectionNotice } from '../../../machines/connection.ts';
import {
  createConversationStream,
  pageSocketUrl,
  type LiveConversationStream,
} from '../../realtime/conversation-stream.ts';
import type { Event } from '../../../openapi/types.ts';

export const UPGRADED_STATUS = 'ONBOARDING$UPGRADED';

/** What one new event of the chat tells the page's machine. */
export function reportsOf(event: Event): ChatSocketReport[] {
  const reports: ChatSocketReport[] = [{ type: 'EVENT_ARRIVED' }];
  if (event.source === 'agent' && event.action === 'message') reports.push({ type: 'AGENT_MESSAGE' });
  if (event.status_id === 'rewind_success') reports.push({ type: 'REWOUND' });
  if (event.status_id === 'rewind_error') reports.push({ type: 'REWIND_FAILED' });
  if (event.status_id === UPGRADED_STATUS && event.message)
    reports.push({ type: 'UPGRADED', conversationId: event.message });
  return reports;
}

export interface ChatSocketOptions {
  /** The page reads the chat's events from the stream while it is open (null once closed). */
  onStream: (stream: LiveConversationStream | null) => void;
  describe: (notice: ConnectionNotice) => string;
  reloadPage: () => void;
  WebSocket?: unknown;
}

/**
 * The machine's chatSocket actor: the chat's events over the socket in chat_only_mode with the
 * chat's token (the stream replays the chat from its start; it has no REST history), reported
 * one by one; TRANSMIT sends an action, REFETCH reconnects and takes what the server holds.
 */
export function chatSocketActor(options: ChatSocketOptions) {
  return fromCallback<ChatSocketCommand, { chat: OnboardingChat }, ChatSocketReport>(({ input, sendBack, receive }) => {
    const stream = createConversationStream({
      conversationId: input.chat.id,
      socketUrl: pageSocketUrl(),
      credentials: () => ({ chat_only_mode: 'true', auth_token: input.chat.token }),
      fetchEvents: async () => ({ events: [], has_more: false }),
      clearTempMessage: () => undefined,
      describe: options.describe,
      announceError: (text) => sendBack({ type: 'REFUSED', text }),
      reloadPage: options.reloadPage,
      ...(options.WebSocket ? { WebSocket: options.WebSocket } : {}),
    });
    let reported = -1;
    const unsubscribe = stream.subscribe(() => {
      for (const event of stream.getSnapshot().events) {
        if (event.id <= reported) continue;
        reported = event.id;
        for (const report of reportsOf(event)) sendBack(report);
      }
    });
    receive((command) => {
      if (command.type === 'TRANSMIT') stream.send(command.action);
      else stream.reconnect();
    });
    stream.connect();
    options.onStream(stream);
    return () => {
      unsubscribe();
      stream.dispose();
      options.onStream(null);
    };
  });
}
