import type { Conversation, ConversationStream } from '../../../realtime/types.ts';

export interface AppTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

export function AppTab(_props: AppTabProps) {
  return null;
}
