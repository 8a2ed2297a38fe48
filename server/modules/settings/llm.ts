import type { Config } from '../../config.ts';

export type LlmProvider = 'openai' | 'anthropic' | 'openai-compatible';

export interface LlmChoice {
  provider: LlmProvider;
  model: string;
  apiKey?: string;
  baseUrl?: string;
}

/** The spec's default model: the provider's Claude Sonnet 4 identifier. */
export const DEFAULT_MODEL = 'anthropic/claude-sonnet-4-20250514';

/** The `provider/model` identifier the settings screens show for the operator's LLM_* model. */
export function configuredModelId(llm: Config['llm']): string | null {
  if (!llm.provider || !llm.model) return null;
  // An OpenAI-compatible endpoint is spelled like LiteLLM does: `openai/<model>` plus a base URL.
  return `${llm.provider === 'anthropic' ? 'anthropic' : 'openai'}/${llm.model}`;
}

/**
 * Reads a `provider/model` identifier. Anthropic and OpenAI are called directly; any other
 * prefix (ollama/, openrouter/, ...) or any model with a base URL goes to an OpenAI-compatible
 * endpoint, which needs that base URL. Null when the model cannot be reached.
 */
export function parseModelId(
  id: string,
  baseUrl: string | null | undefined,
): Pick<LlmChoice, 'provider' | 'model'> | null {
  const slash = id.indexOf('/');
  const prefix = slash > 0 ? id.slice(0, slash) : '';
  const rest = slash > 0 ? id.slice(slash + 1) : id;
  if (!rest) return null;
  if (prefix === 'anthropic' || (!prefix && rest.startsWith('claude'))) return { provider: 'anthropic', model: rest };
  if (baseUrl) return { provider: 'openai-compatible', model: rest };
  if (prefix === 'openai' || !prefix) return { provider: 'openai', model: rest };
  return null;
}
