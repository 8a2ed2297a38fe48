import { generateText, jsonSchema } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeLlm, reply } from '../../../tests/support/fake-llm/index.ts';
import { BUILT_IN_TOOLS, ToolRegistry } from '../tools/index.ts';
import { ModelCallError } from './errors.ts';
import { asProviderModel } from './provider-prompt.ts';
import { createLanguageModel } from './provider.ts';
import { streamModelCall } from './stream-call.ts';

const llm = new FakeLlm();
let baseUrl = '';
beforeAll(async () => {
  baseUrl = await llm.start();
});
afterAll(async () => llm.stop());

const tools = new ToolRegistry(BUILT_IN_TOOLS).forModel();
const call = (provider: 'openai' | 'openai-compatible' = 'openai-compatible', signal = new AbortController().signal) =>
  streamModelCall({
    model: asProviderModel(createLanguageModel({ provider, model: 'fake-model', apiKey: 'test-key', baseUrl })),
    system: 'You are a test.',
    messages: [{ role: 'user', content: 'Hello' }],
    tools,
    signal,
  });

describe('streamModelCall against an OpenAI-compatible server', () => {
  it('assembles streamed text and tool calls whose arguments arrive in pieces, with the usage', async () => {
    llm.enqueue(
      reply.toolCalls(
        [
          { name: 'execute_bash', arguments: { command: 'ls -la', security_risk: 'LOW' } },
          { name: 'think', arguments: { thought: 'then look around' } },
        ],
        { text: 'Let me look.', usage: { prompt_tokens: 1200, completion_tokens: 40, cached_tokens: 1000 } },
      ),
    );
    const response = await call();
    expect(response.text).toBe('Let me look.');
    expect(response.toolCalls).toEqual([
      {
        toolCallId: expect.any(String),
        toolName: 'execute_bash',
        input: { command: 'ls -la', security_risk: 'LOW' },
        invalidReason: null,
      },
      {
        toolCallId: expect.any(String),
        toolName: 'think',
        input: { thought: 'then look around' },
        invalidReason: null,
      },
    ]);
    expect(response.usage).toEqual({
      promptTokens: 1200,
      completionTokens: 40,
      cacheReadTokens: 1000,
      cacheWriteTokens: 0,
    });
    expect(response.responseId).toMatch(/^chatcmpl-/);

    const sent = llm.completions.at(-1);
    expect(sent).toMatchObject({ model: 'fake-model', stream: true, stream_options: { include_usage: true } });
    expect(sent?.messages[0]).toEqual({ role: 'system', content: 'You are a test.' });
    expect(sent?.tools?.map((tool) => tool.function.name)).toEqual([
      'execute_bash',
      'str_replace_editor',
      'execute_ipython_cell',
      'browser',
      'think',
      'finish',
    ]);
    expect(llm.requests.at(-1)?.headers.authorization).toBe('Bearer test-key');
  });

  it('speaks the same protocol through the OpenAI adapter', async () => {
    llm.enqueue(reply.text('Hi from OpenAI.'));
    expect((await call('openai')).text).toBe('Hi from OpenAI.');
  });

  it('marks calls the agent cannot run: unparsable arguments, unknown tools', async () => {
    llm.enqueue(
      reply.toolCalls([
        { name: 'execute_bash', arguments: '{"command": "ls"' },
        { name: 'teleport', arguments: { where: 'mars' } },
      ]),
    );
    const [broken, unknown] = (await call()).toolCalls;
    expect(broken?.invalidReason).toBeTruthy();
    expect(unknown).toMatchObject({
      toolName: 'teleport',
      input: { where: 'mars' },
      invalidReason: expect.stringContaining('teleport'),
    });
  });

  it('throws classified errors', async () => {
    llm.enqueue(reply.error(429, 'Too many requests', { headers: { 'retry-after': '3' } }));
    const error = await call().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({
      retryable: true,
      retryAfterMs: 3000,
      reason: 'The model provider is rate limiting requests (HTTP 429): Too many requests',
    });
  });

  it('classifies an error sent inside a stream that has started', async () => {
    llm.enqueue(reply.error(503, 'Upstream overloaded', { inStream: true }));
    const error = await call().catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      retryable: true,
      reason: 'The model provider is unavailable (HTTP 503): Upstream overloaded',
    });
  });

  it('stops waiting when aborted', async () => {
    llm.enqueue(reply.hang());
    const controller = new AbortController();
    const pending = call('openai-compatible', controller.signal);
    await expect.poll(() => llm.openRequests).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => llm.abandoned).toBeGreaterThan(0);
  });
});

describe('the fake OpenAI-compatible server', () => {
  it('answers without streaming, tool calls included', async () => {
    llm.enqueue(reply.toolCall('think', { thought: 'plain' }, { text: 'Thinking.' }));
    const result = await generateText({
      model: createLanguageModel({ provider: 'openai-compatible', model: 'fake-model', baseUrl }),
      prompt: 'Think',
      tools: { think: { inputSchema: jsonSchema({ type: 'object', properties: { thought: { type: 'string' } } }) } },
    });
    expect(result.text).toBe('Thinking.');
    expect(result.toolCalls.map((toolCall) => [toolCall.toolName, toolCall.input])).toEqual([
      ['think', { thought: 'plain' }],
    ]);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('lists its model', async () => {
    const models = (await (await fetch(`${baseUrl}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((model) => model.id)).toEqual(['fake-model']);
  });

  it('answers 500 when the script has no reply, so a missing step fails loudly', async () => {
    const response = await fetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'x', messages: [] }),
    });
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('the script has no reply');
  });
});
