import type { ModelMessage, SystemModelMessage } from 'ai';

/** Other providers ignore this option: OpenAI and most compatible servers cache prefixes on their own. */
const CACHE_CONTROL = { type: 'ephemeral' } as const;

function markBreakpoint<M extends ModelMessage | SystemModelMessage>(message: M): M {
  return {
    ...message,
    providerOptions: {
      ...message.providerOptions,
      anthropic: { ...message.providerOptions?.anthropic, cacheControl: CACHE_CONTROL },
    },
  };
}

/**
 * The prompt with Anthropic's cache breakpoints, which it needs to cache anything (at most
 * four): after the system prompt, so the tools and the system prompt are cached for every call;
 * on the last message, so this call writes the conversation so far to the cache; and on the
 * message before the last assistant message — the end of the previous call's prompt — so this
 * call reads what the previous one wrote, however many tool results came since.
 */
export function withCacheBreakpoints(
  system: string,
  messages: readonly ModelMessage[],
): { system: SystemModelMessage; messages: ModelMessage[] } {
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  const marked = new Set([messages.length - 1, lastAssistant > 0 ? lastAssistant - 1 : -1]);
  return {
    system: markBreakpoint({ role: 'system', content: system }),
    messages: messages.map((message, index) => (marked.has(index) ? markBreakpoint(message) : message)),
  };
}
