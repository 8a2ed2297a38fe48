import { describe, expect, it } from 'vitest';
import { ModelCallError } from './errors.ts';
import { createLanguageModel, NO_MODEL_CONFIGURED } from './provider.ts';

describe('createLanguageModel', () => {
  it('builds a model for each provider', () => {
    const ids = (['openai', 'anthropic', 'openai-compatible'] as const).map((provider) => {
      const model = createLanguageModel({
        provider,
        model: 'some-model',
        apiKey: 'k',
        baseUrl: 'http://127.0.0.1:1/v1',
      });
      return typeof model === 'string' ? model : `${model.provider} ${model.modelId}`;
    });
    expect(ids).toEqual([
      'openai.chat some-model',
      'anthropic.messages some-model',
      'openai-compatible.chat some-model',
    ]);
  });

  it('says how to configure a model when there is none', () => {
    expect(() => createLanguageModel(null)).toThrow(ModelCallError);
    expect(() => createLanguageModel(null)).toThrow(NO_MODEL_CONFIGURED);
  });

  it('asks for the base URL of an OpenAI-compatible server', () => {
    expect(() => createLanguageModel({ provider: 'openai-compatible', model: 'llama3' })).toThrow(/needs a base URL/);
  });
});
