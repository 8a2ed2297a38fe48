import type * as Anthropic from '@ai-sdk/anthropic';
import type * as OpenAI from '@ai-sdk/openai';
import type * as OpenAICompatible from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { lazyPackage } from '../../shared/lazy-package.ts';
import type { LlmSettings } from '../types.ts';
import { ModelCallError } from './errors.ts';
import { modelFetch } from './http-fetch.ts';

const anthropic = lazyPackage<typeof Anthropic>('@ai-sdk/anthropic');
const openai = lazyPackage<typeof OpenAI>('@ai-sdk/openai');
const openaiCompatible = lazyPackage<typeof OpenAICompatible>('@ai-sdk/openai-compatible');

export const NO_MODEL_CONFIGURED =
  'No language model is configured. In oss mode, choose a provider, a model and an API key in Settings → LLM. ' +
  'In saas mode the operator configures it with the LLM_PROVIDER, LLM_MODEL, LLM_API_KEY (and, for an OpenAI-compatible server, LLM_BASE_URL) environment variables.';

/**
 * The AI SDK model for the configured provider. OpenAI is spoken to through its Chat
 * Completions API — the same wire protocol as every OpenAI-compatible server — so one fake
 * server exercises both adapters in tests.
 */
export function createLanguageModel(llm: LlmSettings | null): LanguageModel {
  if (!llm)
    throw new ModelCallError({
      reason: NO_MODEL_CONFIGURED,
      retryable: false,
      errorId: 'STATUS$ERROR_LLM_NOT_CONFIGURED',
    });
  const baseURL = llm.baseUrl || undefined;
  switch (llm.provider) {
    case 'openai':
      return openai().createOpenAI({ apiKey: llm.apiKey, baseURL, fetch: modelFetch }).chat(llm.model);
    case 'anthropic':
      return anthropic().createAnthropic({ apiKey: llm.apiKey, baseURL, fetch: modelFetch })(llm.model);
    case 'openai-compatible':
      if (!baseURL) {
        throw new ModelCallError({
          reason: 'An OpenAI-compatible model needs a base URL (for example http://localhost:11434/v1 for Ollama).',
          retryable: false,
          errorId: 'STATUS$ERROR_LLM_NOT_CONFIGURED',
        });
      }
      // includeUsage asks the server for the token counts that metering needs at the end of the stream.
      return openaiCompatible()
        .createOpenAICompatible({
          name: 'openai-compatible',
          baseURL,
          apiKey: llm.apiKey,
          includeUsage: true,
          fetch: modelFetch,
        })
        .chatModel(llm.model);
  }
}
