import type { Conversation } from '../../../openapi/types.ts';

/** The runtime answers workspace calls once its status is STATUS$READY. */
export const isRuntimeReady = (conversation: Pick<Conversation, 'status' | 'runtime_status'>) =>
  conversation.status === 'RUNNING' && conversation.runtime_status === 'STATUS$READY';
