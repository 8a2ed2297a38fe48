import type { Config } from '../../config.ts';
import { configuredModelId, DEFAULT_MODEL } from '../settings/index.ts';

/**
 * Models of the providers the agent speaks to directly, as `provider/model` (LiteLLM's
 * spelling, which the settings screen splits on '/'). Any other model works through an
 * OpenAI-compatible base URL; the operator's LLM_MODEL is listed first when set.
 */
const KNOWN_MODELS = [
  DEFAULT_MODEL,
  'anthropic/claude-opus-4-1-20250805',
  'anthropic/claude-opus-4-20250514',
  'anthropic/claude-3-7-sonnet-20250219',
  'anthropic/claude-3-5-haiku-20241022',
  'openai/gpt-5',
  'openai/gpt-5-mini',
  'openai/gpt-4.1',
  'openai/gpt-4.1-mini',
  'openai/gpt-4o',
  'openai/gpt-4o-mini',
  'openai/o3',
  'openai/o4-mini',
];

export function knownModels(config: Config): string[] {
  const configured = configuredModelId(config.llm);
  return [...new Set([...(configured ? [configured] : []), ...KNOWN_MODELS])];
}
