import type { LanguageModel, ModelMessage, SystemModelMessage, UserContent } from 'ai';

/** The AI SDK's provider-level model (specification v3), which the agent calls directly. */
export type ProviderModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;
export type ProviderCallOptions = Parameters<ProviderModel['doStream']>[0];
export type ProviderPrompt = ProviderCallOptions['prompt'];
export type ProviderTool = Extract<NonNullable<ProviderCallOptions['tools']>[number], { type: 'function' }>;
type ProviderMessage = ProviderPrompt[number];
type ProviderUserPart = Extract<ProviderMessage, { role: 'user' }>['content'][number];

/** Every adapter the agent uses implements specification v3; a model id string or an older adapter is a programming error. */
export function asProviderModel(model: LanguageModel): ProviderModel {
  if (typeof model === 'string' || model.specificationVersion !== 'v3')
    throw new Error('The agent needs a language model of the AI SDK specification v3');
  return model;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function userParts(content: UserContent): ProviderUserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part): ProviderUserPart => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    // The agent's only images are the user's pasted pictures, kept as data URLs (context/units.ts).
    const source = part.type === 'image' ? part.image : part.data;
    const match = typeof source === 'string' ? DATA_URL.exec(source) : null;
    if (!match?.[1] || match[2] === undefined)
      throw new Error('Only data URLs are sent to the model as images or files');
    return { type: 'file', mediaType: match[1], data: match[2] };
  });
}

type ProviderAssistantPart = Extract<ProviderMessage, { role: 'assistant' }>['content'][number];
type AssistantPart = Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string>[number];

function assistantPart(part: AssistantPart): ProviderAssistantPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'tool-call')
    return { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
  throw new Error(`The agent does not send assistant parts of type ${part.type}`);
}

/**
 * The conversation in the provider's prompt format. The agent builds its messages itself
 * (context/units.ts) from a handful of part types, so this converts exactly those instead of
 * running the SDK's generic prompt validation, which re-validated the whole history with zod
 * on every step (about 10 ms for 200 messages) — the largest cost of an agent step.
 */
export function toProviderPrompt({
  system,
  messages,
}: {
  system: SystemModelMessage;
  messages: readonly ModelMessage[];
}): ProviderPrompt {
  // Provider options (Anthropic's cache breakpoints, prompt-cache.ts) travel with each message.
  const options = (message: ModelMessage | SystemModelMessage) =>
    message.providerOptions ? { providerOptions: message.providerOptions } : {};
  const prompt: ProviderPrompt = [{ role: 'system', content: system.content, ...options(system) }];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content, ...options(message) });
        break;
      case 'user':
        prompt.push({ role: 'user', content: userParts(message.content), ...options(message) });
        break;
      case 'assistant': {
        const parts =
          typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
        prompt.push({ role: 'assistant', content: parts.map(assistantPart), ...options(message) });
        break;
      }
      case 'tool':
        prompt.push({
          role: 'tool',
          content: message.content.flatMap((part) => {
            if (part.type !== 'tool-result') throw new Error(`The agent does not send tool parts of type ${part.type}`);
            if (part.output.type !== 'text')
              throw new Error(`The agent does not send tool results of type ${part.output.type}`);
            return [
              {
                type: 'tool-result' as const,
                toolCallId: part.toolCallId,
                toolName: part.toolName,
                output: { type: 'text' as const, value: part.output.value },
              },
            ];
          }),
          ...options(message),
        });
        break;
    }
  }
  return prompt;
}
