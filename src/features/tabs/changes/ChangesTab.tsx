import type { Conversation, ConversationStream } from '../../../realtime/types.ts';

export interface ChangesTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

export function ChangesTab(_props: ChangesTabProps) {
  return null;
}
