import { describe, expect, it } from 'vitest';
import { configuredModelId, parseModelId } from './llm.ts';

describe('model identifiers', () => {
  it('reads provider/model with or without a base URL', () => {
    expect(parseModelId('anthropic/claude-sonnet-4-20250514', null)).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-20250514',
    });
    expect(parseModelId('openai/gpt-4o', null)).toEqual({ provider: 'openai', model: 'gpt-4o' });
    expect(parseModelId('openai/llama3', 'http://127.0.0.1:11434/v1')).toEqual({
      provider: 'openai-compatible',
      model: 'llama3',
    });
    expect(parseModelId('openrouter/anthropic/claude-3', 'https://openrouter.ai/api/v1')).toEqual({
      provider: 'openai-compatible',
      model: 'anthropic/claude-3',
    });
    expect(parseModelId('mistral/large', null)).toBeNull();
  });

  it('spells the operator model like the settings screens do', () => {
    expect(
      configuredModelId({ provider: 'openai-compatible', model: 'qwen', apiKey: undefined, baseUrl: 'http://x/v1' }),
    ).toBe('openai/qwen');
    expect(
      configuredModelId({ provider: undefined, model: undefined, apiKey: undefined, baseUrl: undefined }),
    ).toBeNull();
  });
});
