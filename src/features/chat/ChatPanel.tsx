import type { Conversation, ConversationStream } from '../../realtime/types.ts';

export interface ChatPanelProps {
  stream: ConversationStream;
  conversation: Conversation;
}

export function ChatPanel(_props: ChatPanelProps) {
  return null;
}
