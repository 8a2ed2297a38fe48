import type { Conversation, ConversationStream } from '../../../realtime/types.ts';

export interface BrowserTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

export function BrowserTab(_props: BrowserTabProps) {
  return null;
}
