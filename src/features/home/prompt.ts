import { enterKeyIntent, type EnterIntent } from '../../../machines/chat-input.ts';

/** The text a prompt submits: trimmed, or null when nothing is left (nothing is sent). */
export function promptText(raw: string): string | null {
  const text = raw.trim();
  return text === '' ? null : text;
}

/** Enter in the home box, by the chat input's rule; keyCode 229 is a key the IME is still composing (Safari reports it so). */
export function homeEnterIntent(key: {
  key: string;
  shiftKey: boolean;
  isComposing: boolean;
  keyCode: number;
}): EnterIntent | null {
  if (key.key !== 'Enter') return null;
  return enterKeyIntent({ shiftKey: key.shiftKey, isComposing: key.isComposing || key.keyCode === 229 });
}

/** Where a new conversation opens: the workspace, with the prompt (if any) for the socket to send once connected. */
export function workspaceLocation(conversationId: string, text: string | null) {
  return {
    to: '/experiment/conversations/$conversationId',
    params: { conversationId },
    search: text === null ? {} : { temp_message: text },
  } as const;
}
