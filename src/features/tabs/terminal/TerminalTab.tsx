import type { Conversation, ConversationStream } from '../../../realtime/types.ts';

export interface TerminalTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

export function TerminalTab(_props: TerminalTabProps) {
  return null;
}
