import type { ServerResponse } from 'node:http';
import type { CompletionReply, ErrorReply } from '../fake-llm/script.ts';
import { argumentsText, pieces, ScriptedServer, sendJson, type RecordedRequest } from '../fake-llm/scripted-server.ts';

export interface CacheControl {
  type: 'ephemeral';
  ttl?: string;
}

/** A content block: `text` (text), `tool_use` (id, name, input), `tool_result` (tool_use_id, content), …. */
export interface ContentBlock {
  type: string;
  cache_control?: CacheControl;
  [field: string]: unknown;
}

export interface AnthropicMessage {
  role: string;
  content: string | ContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema?: { type?: string; [key: string]: unknown };
  cache_control?: CacheControl;
}

/** The parsed JSON body of a Messages API request. */
export interface MessagesRequest {
  model: string;
  max_tokens: number;
  stream?: boolean;
  system?: string | ContentBlock[];
  messages: AnthropicMessage[];
  tools?: AnthropicTool[];
  [key: string]: unknown;
}

/** The `error.type` Anthropic answers each HTTP status with. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};
const errorType = (status: number) => ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');

const MAX_CACHE_BREAKPOINTS = 4;
const blocksOf = (content: string | ContentBlock[] | undefined): ContentBlock[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : (content ?? []);

/**
 * A fake Anthropic Messages API for tests: `POST /v1/messages`, streamed as Anthropic's
 * server-sent events (message_start, content blocks with text and input_json deltas,
 * message_delta, message_stop) or answered as one JSON message. It checks requests the way
 * the real API does where that is cheap — headers, required fields, alternating roles,
 * tool results that answer the previous turn's tool uses, at most four cache breakpoints —
 * and answers what it refuses with a 400 in Anthropic's error format. Replies come from the
 * same scripts as the OpenAI-compatible fake.
 */
export class FakeAnthropic extends ScriptedServer<MessagesRequest> {
  /** @param apiKey when given, any other x-api-key is refused with a 401, as the real API does. */
  constructor(
    model = 'claude-sonnet-4-20250514',
    private readonly apiKey?: string,
  ) {
    super(model);
  }

  /** The bodies of the Messages API requests received. */
  get messageRequests(): MessagesRequest[] {
    return this.requests.flatMap((request) => (request.path === '/v1/messages' && request.body ? [request.body] : []));
  }

  protected route(request: RecordedRequest<MessagesRequest>, response: ServerResponse): MessagesRequest | null {
    const refuse = (status: number, message: string) => {
      this.sendError(response, { status, message });
      return null;
    };
    if (request.method !== 'POST' || request.path !== '/v1/messages')
      return refuse(404, `Not found: ${request.method} ${request.path}`);
    const key = request.headers['x-api-key'];
    if (!key) return refuse(401, 'x-api-key header is required');
    if (this.apiKey !== undefined && key !== this.apiKey) return refuse(401, 'invalid x-api-key');
    if (!request.headers['anthropic-version']) return refuse(400, 'anthropic-version: header is required');
    if (!request.body) return refuse(400, 'The request body is empty');
    const problem = requestProblem(request.body);
    return problem ? refuse(400, problem) : request.body;
  }

  protected sendError(response: ServerResponse, reply: Pick<ErrorReply, 'status' | 'message' | 'headers'>): void {
    sendJson(response, reply.status, errorBody(reply), {
      'request-id': `req_fake_${this.requests.length}`,
      ...reply.headers,
    });
  }

  protected sendStreamError(response: ServerResponse, body: MessagesRequest, reply: ErrorReply): void {
    const write = openEventStream(response);
    write('message_start', {
      type: 'message_start',
      message: message('msg_fake_error', body, [], null, { input_tokens: 1, output_tokens: 1 }),
    });
    write('error', errorBody(reply));
    response.end();
  }

  protected sendCompletion(response: ServerResponse, body: MessagesRequest, reply: CompletionReply): void {
    const { number, usage } = this.nextCompletion(
      { system: body.system, messages: body.messages, tools: body.tools ?? [] },
      reply,
    );
    const id = `msg_fake${number}`;
    const calls = reply.toolCalls.map((call, index) => ({
      id: call.id ?? `toolu_fake${number}_${index}`,
      name: call.name,
      json: argumentsText(call.arguments),
    }));
    const wireUsage = {
      // Anthropic's input_tokens excludes what was read from or written to the cache.
      input_tokens: Math.max(0, usage.prompt_tokens - usage.cached_tokens - usage.cache_write_tokens),
      cache_creation_input_tokens: usage.cache_write_tokens,
      cache_read_input_tokens: usage.cached_tokens,
      output_tokens: usage.completion_tokens,
    };
    const stopReason = calls.length > 0 ? 'tool_use' : 'end_turn';
    if (!body.stream) {
      const content = [
        ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
        ...calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: parseOr(call.json) })),
      ];
      sendJson(response, 200, message(id, body, content, stopReason, wireUsage));
      return;
    }

    const write = openEventStream(response);
    write('message_start', {
      type: 'message_start',
      message: message(id, body, [], null, { ...wireUsage, output_tokens: 1 }),
    });
    write('ping', { type: 'ping' });
    let index = 0;
    if (reply.text) {
      write('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const piece of pieces(reply.text, 3))
        write('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: piece },
        });
      write('content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
    for (const call of calls) {
      write('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      });
      // Anthropic opens every tool input with an empty partial_json.
      for (const piece of ['', ...pieces(call.json, 3)]) {
        write('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        });
      }
      write('content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
    write('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: wireUsage.output_tokens },
    });
    write('message_stop', { type: 'message_stop' });
    response.end();
  }
}

function message(
  id: string,
  body: MessagesRequest,
  content: unknown[],
  stopReason: string | null,
  usage: Record<string, number>,
) {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
}

function errorBody(reply: Pick<ErrorReply, 'status' | 'message'>) {
  return { type: 'error', error: { type: errorType(reply.status), message: reply.message } };
}

function openEventStream(response: ServerResponse): (event: string, data: unknown) => void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  return (event, data) => response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function parseOr(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/** What the real API would refuse in this body, in its words; null when it is fine. */
function requestProblem(body: MessagesRequest): string | null {
  if (typeof body.model !== 'string' || !body.model) return 'model: Field required';
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) return 'max_tokens: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  for (const [index, tool] of (body.tools ?? []).entries()) {
    if (!/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name))
      return `tools.${index}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    if (tool.input_schema?.type !== 'object')
      return `tools.${index}.custom.input_schema.type: Input should be 'object'`;
  }
  let previousToolUses: string[] = [];
  for (const [index, message] of body.messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant')
      return `messages.${index}.role: Input should be 'user' or 'assistant'`;
    if (index === 0 && message.role !== 'user') return 'messages: first message must use the "user" role';
    const previous = body.messages[index - 1];
    if (previous?.role === message.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${message.role}" roles in a row`;
    }
    const blocks = blocksOf(message.content);
    if (blocks.length === 0) return `messages.${index}: all messages must have non-empty content`;
    const results = blocks.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id as string] : []));
    if (message.role === 'assistant' && results.length > 0)
      return `messages.${index}: tool_result blocks can only be in user messages`;
    const missing = previousToolUses.filter((id) => !results.includes(id));
    if (missing.length > 0) {
      return `messages.${index - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
    const unexpected = results.filter((id) => !previousToolUses.includes(id));
    if (unexpected.length > 0) {
      return `messages.${index}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    if (blocks.slice(0, results.length).some((block) => block.type !== 'tool_result')) {
      return `messages.${index}: tool_result blocks must come first in the content, before any other block`;
    }
    previousToolUses =
      message.role === 'assistant'
        ? blocks.flatMap((block) => (block.type === 'tool_use' ? [block.id as string] : []))
        : [];
  }
  if (previousToolUses.length > 0)
    return `messages.${body.messages.length - 1}: the conversation ends with \`tool_use\` blocks that have no \`tool_result\``;
  const breakpoints = [
    ...blocksOf(body.system),
    ...(body.tools ?? []),
    ...body.messages.flatMap((message) => blocksOf(message.content)),
  ].filter((block) => block.cache_control).length;
  if (breakpoints > MAX_CACHE_BREAKPOINTS)
    return `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
  return null;
}
