import type { Conversation, ConversationStream } from '../../../realtime/types.ts';

export interface VscodeTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

export function VscodeTab(_props: VscodeTabProps) {
  return null;
}
