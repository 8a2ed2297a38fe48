import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../context/condenser.ts';
import { takesImages, withoutImages } from './images.ts';

describe('images for the model', () => {
  it('knows the model families that take images, and treats the rest as text-only', () => {
    for (const model of [
      'anthropic/claude-sonnet-4-20250514',
      'claude-3-5-haiku-latest',
      'openai/gpt-4o-mini',
      'gpt-4.1',
      'openai/gpt-5',
      'o3',
      'o4-mini',
      'gemini/gemini-2.5-pro',
      'mistral/pixtral-large-latest',
      'ollama/llava:13b',
      'qwen/qwen2.5-vl-72b-instruct',
    ])
      expect(takesImages(model), model).toBe(true);
    for (const model of [
      'deepseek/deepseek-chat',
      'o3-mini',
      'gpt-3.5-turbo',
      'ollama/qwen2.5-coder:32b',
      'fake-model',
    ])
      expect(takesImages(model), model).toBe(false);
  });

  it('replaces every image with a note for a text-only model, and leaves the rest as it is', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'plain' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', image: 'data:image/png;base64,AAAA' },
        ],
      },
      { role: 'assistant', content: 'Seen.' },
    ];
    const [plain, pictured, answer] = withoutImages(messages);
    expect(plain).toBe(messages[0]);
    expect(answer).toBe(messages[2]);
    expect(pictured).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Look' },
        { type: 'text', text: '[An image is not shown: this model does not take images.]' },
      ],
    });
  });

  it('counts an image as the tokens providers charge for it, not as its base64 text', () => {
    const picture = `data:image/png;base64,${'A'.repeat(400_000)}`;
    const message = { role: 'user', content: [{ type: 'image', image: picture }] };
    expect(estimateTokens([message])).toBeGreaterThan(1_600);
    expect(estimateTokens([message])).toBeLessThan(1_700);
  });
});
