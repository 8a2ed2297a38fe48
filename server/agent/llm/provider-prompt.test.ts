import { describe, expect, it } from 'vitest';
import { toProviderPrompt } from './provider-prompt.ts';

describe('toProviderPrompt', () => {
  it('converts the parts the agent sends: system, user text and pictures, assistant text and calls, tool results', () => {
    const prompt = toProviderPrompt({
      system: { role: 'system', content: 'Be useful.' },
      messages: [
        { role: 'user', content: 'Hello' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'This one' },
            { type: 'image', image: 'data:image/png;base64,iVBORw0KGgo=' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Looking.' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'execute_bash', input: { command: 'ls' } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'execute_bash',
              output: { type: 'text', value: 'a.txt' },
            },
          ],
        },
        {
          role: 'assistant',
          content: 'Done.',
          providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
        },
      ],
    });
    expect(prompt).toEqual([
      { role: 'system', content: 'Be useful.' },
      { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'This one' },
          { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'execute_bash', input: { command: 'ls' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'execute_bash', output: { type: 'text', value: 'a.txt' } },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Done.' }],
        providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
      },
    ]);
  });

  it('refuses what the agent never builds rather than sending something half-converted', () => {
    const system = { role: 'system' as const, content: '' };
    expect(() =>
      toProviderPrompt({
        system,
        messages: [{ role: 'user', content: [{ type: 'image', image: new URL('https://example.com/a.png') }] }],
      }),
    ).toThrow(/data URLs/);
    expect(() =>
      toProviderPrompt({
        system,
        messages: [
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'c', toolName: 't', output: { type: 'json', value: { a: 1 } } },
            ],
          },
        ],
      }),
    ).toThrow(/json/);
  });
});
