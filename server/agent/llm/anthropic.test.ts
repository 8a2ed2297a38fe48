import { generateText, jsonSchema, type ModelMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../../tests/support/fake-anthropic/index.ts';
import { reply } from '../../../tests/support/fake-llm/index.ts';
import { BUILT_IN_TOOLS, ToolRegistry } from '../tools/index.ts';
import { ModelCallError } from './errors.ts';
import { asProviderModel } from './provider-prompt.ts';
import { createLanguageModel } from './provider.ts';
import { streamModelCall } from './stream-call.ts';

const llm = new FakeAnthropic('claude-sonnet-4-20250514', 'anthropic-key');
let baseUrl = '';
beforeAll(async () => {
  baseUrl = await llm.start();
});
afterAll(async () => llm.stop());

const tools = new ToolRegistry(BUILT_IN_TOOLS).forModel();
const model = (apiKey = 'anthropic-key') =>
  createLanguageModel({ provider: 'anthropic', model: 'claude-sonnet-4-20250514', apiKey, baseUrl });
const call = (messages: ModelMessage[] = [{ role: 'user', content: 'Hello' }], apiKey?: string) =>
  streamModelCall({
    model: asProviderModel(model(apiKey)),
    system: 'You are a test.',
    messages,
    tools,
    signal: new AbortController().signal,
  });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('the call succeeded'),
    (error: unknown) => error,
  );

/** The history of one finished step: the model's tool call and its result. */
const afterToolCall = (id: string): ModelMessage[] => [
  { role: 'user', content: 'List the files' },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: id, toolName: 'execute_bash', input: { command: 'ls' } }],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: id, toolName: 'execute_bash', output: { type: 'text', value: 'a.txt' } },
    ],
  },
];

describe('streamModelCall against the Anthropic Messages API', () => {
  it('assembles streamed text and tool uses whose input arrives in pieces, with the cache token counts', async () => {
    llm.enqueue(
      reply.toolCalls(
        [
          { name: 'execute_bash', arguments: { command: 'ls -la', security_risk: 'LOW' } },
          { name: 'think', arguments: { thought: 'then look around' } },
        ],
        {
          text: 'Let me look.',
          usage: { prompt_tokens: 5000, completion_tokens: 40, cached_tokens: 3000, cache_write_tokens: 1500 },
        },
      ),
    );
    const response = await call();
    expect(response.text).toBe('Let me look.');
    expect(response.toolCalls).toEqual([
      {
        toolCallId: expect.stringMatching(/^toolu_/),
        toolName: 'execute_bash',
        input: { command: 'ls -la', security_risk: 'LOW' },
        invalidReason: null,
      },
      {
        toolCallId: expect.stringMatching(/^toolu_/),
        toolName: 'think',
        input: { thought: 'then look around' },
        invalidReason: null,
      },
    ]);
    // Anthropic reports 500 uncached input tokens besides the cached ones; the agent counts every prompt token.
    expect(response.usage).toEqual({
      promptTokens: 5000,
      completionTokens: 40,
      cacheReadTokens: 3000,
      cacheWriteTokens: 1500,
    });
    expect(response.responseId).toMatch(/^msg_/);

    const request = llm.requests.at(-1);
    expect(request?.headers).toMatchObject({ 'x-api-key': 'anthropic-key', 'anthropic-version': '2023-06-01' });
    expect(request?.body).toMatchObject({
      model: 'claude-sonnet-4-20250514',
      stream: true,
      max_tokens: expect.any(Number),
    });
    expect(request?.body?.tools?.map((tool) => tool.name)).toEqual([
      'execute_bash',
      'str_replace_editor',
      'execute_ipython_cell',
      'browser',
      'think',
      'finish',
    ]);
  });

  it('marks cache breakpoints: the system prompt, the end of the previous call and the end of this one', async () => {
    llm.enqueue(reply.text('Done.'));
    const history: ModelMessage[] = [
      ...afterToolCall('toolu_first'),
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'toolu_second', toolName: 'think', input: { thought: 'hm' } }],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'toolu_second', toolName: 'think', output: { type: 'text', value: 'ok' } },
        ],
      },
    ];
    expect((await call(history)).text).toBe('Done.');

    const sent = llm.messageRequests.at(-1);
    expect(sent?.system).toEqual([{ type: 'text', text: 'You are a test.', cache_control: { type: 'ephemeral' } }]);
    const marked = sent?.messages.map(
      (message) => typeof message.content !== 'string' && message.content.some((block) => block.cache_control),
    );
    expect(sent?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(marked).toEqual([false, false, true, false, true]);
  });

  it('sends tool results as tool_result blocks answering the tool_use ids, which the API checks', async () => {
    llm.enqueue(reply.text('a.txt is there.'));
    expect((await call(afterToolCall('toolu_earlier'))).text).toBe('a.txt is there.');
    const [, assistant, result] = llm.messageRequests.at(-1)?.messages ?? [];
    expect(assistant?.content).toEqual([
      expect.objectContaining({
        type: 'tool_use',
        id: 'toolu_earlier',
        name: 'execute_bash',
        input: { command: 'ls' },
      }),
    ]);
    expect(result?.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_earlier' })]);
  });

  it('classifies HTTP errors from their Anthropic error bodies', async () => {
    llm.enqueue(
      reply.error(429, 'Number of request tokens has exceeded your per-minute rate limit', {
        headers: { 'retry-after': '4' },
      }),
    );
    expect(await failure(call())).toMatchObject({
      retryable: true,
      retryAfterMs: 4000,
      reason:
        'The model provider is rate limiting requests (HTTP 429): Number of request tokens has exceeded your per-minute rate limit',
    });
    llm.enqueue(reply.error(529, 'Overloaded'));
    expect(await failure(call())).toMatchObject({ retryable: true, errorId: 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE' });
    expect(await failure(call(undefined, 'wrong-key'))).toMatchObject({
      retryable: false,
      reason: 'The model provider rejected the API key (HTTP 401): invalid x-api-key',
    });
  });

  it('retries an overload reported inside a stream that has started', async () => {
    llm.enqueue(reply.error(529, 'Overloaded', { inStream: true }));
    const error = await failure(call());
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({
      retryable: true,
      errorId: 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE',
      reason: expect.stringContaining('Overloaded'),
    });
  });

  it('answers without streaming, tool uses included', async () => {
    llm.enqueue(
      reply.toolCall(
        'think',
        { thought: 'plain' },
        { text: 'Thinking.', usage: { prompt_tokens: 300, completion_tokens: 7, cached_tokens: 100 } },
      ),
    );
    const result = await generateText({
      model: model(),
      system: 'Name it',
      prompt: 'Think',
      tools: { think: { inputSchema: jsonSchema({ type: 'object', properties: { thought: { type: 'string' } } }) } },
    });
    expect(result.text).toBe('Thinking.');
    expect(result.toolCalls.map((toolCall) => [toolCall.toolName, toolCall.input])).toEqual([
      ['think', { thought: 'plain' }],
    ]);
    expect(result.usage).toMatchObject({
      inputTokens: 300,
      outputTokens: 7,
      inputTokenDetails: { cacheReadTokens: 100, noCacheTokens: 200 },
    });
    expect(llm.messageRequests.at(-1)?.stream).toBeFalsy();
  });

  it('answers 500 when the script has no reply, so a missing step fails loudly', async () => {
    const error = await failure(call());
    expect((error as ModelCallError).reason).toContain('the script has no reply');
  });
});

describe('the fake Anthropic server', () => {
  const headers = {
    'x-api-key': 'anthropic-key',
    'anthropic-version': '2023-06-01',
    'content-type': 'application/json',
  };
  const post = async (body: unknown, headerValues: Record<string, string> = headers) => {
    const response = await fetch(`${baseUrl}/messages`, {
      method: 'POST',
      headers: headerValues,
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as { type: string; error: { type: string; message: string } },
    };
  };
  const toolUse = { type: 'tool_use', id: 'toolu_a', name: 'think', input: {} };
  const valid = { model: 'claude-sonnet-4-20250514', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };

  it.each([
    ['no max_tokens', { ...valid, max_tokens: undefined }, 'max_tokens: Field required'],
    [
      'two user turns in a row',
      { ...valid, messages: [...valid.messages, { role: 'user', content: 'Again' }] },
      'roles must alternate',
    ],
    [
      'a tool use without its result',
      {
        ...valid,
        messages: [...valid.messages, { role: 'assistant', content: [toolUse] }, { role: 'user', content: 'Well?' }],
      },
      '`tool_use` ids were found without `tool_result` blocks immediately after: toolu_a',
    ],
    [
      'a result for an unknown tool use',
      {
        ...valid,
        messages: [
          ...valid.messages,
          { role: 'assistant', content: 'Ok' },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_b' }] },
        ],
      },
      'unexpected `tool_use_id` found in `tool_result` blocks: toolu_b',
    ],
    [
      'five cache breakpoints',
      {
        ...valid,
        system: [1, 2, 3, 4, 5].map((n) => ({ type: 'text', text: `${n}`, cache_control: { type: 'ephemeral' } })),
      },
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    ],
  ])('refuses %s with a 400 in Anthropic’s format', async (_, body, message) => {
    const answer = await post(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining(message) },
    });
  });

  it('requires the API key and version headers', async () => {
    expect(await post(valid, { 'anthropic-version': '2023-06-01' })).toMatchObject({
      status: 401,
      body: { error: { type: 'authentication_error' } },
    });
    expect(await post(valid, { 'x-api-key': 'anthropic-key' })).toMatchObject({
      status: 400,
      body: { error: { message: 'anthropic-version: header is required' } },
    });
  });
});
