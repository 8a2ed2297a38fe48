import type { Conversation, ConversationStream } from '../../../realtime/types.ts';

export interface JupyterTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

export function JupyterTab(_props: JupyterTabProps) {
  return null;
}
