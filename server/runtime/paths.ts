const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Conversation ids become directory names: only letters, digits, '_' and '-' so no id can climb out of the root. */
export function assertConversationId(id: string): void {
  if (!CONVERSATION_ID.test(id))
    throw new Error(`Invalid conversation id: ${JSON.stringify(id)} (use letters, digits, '_' and '-')`);
}
