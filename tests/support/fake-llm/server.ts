import type { ServerResponse } from 'node:http';
import type { CompletionReply, ErrorReply } from './script.ts';
import { argumentsText, pieces, ScriptedServer, sendJson, type RecordedRequest } from './scripted-server.ts';

/** The parsed JSON body of a chat completions request. */
export interface ChatRequest {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools?: { type: 'function'; function: { name: string; description?: string; parameters?: unknown } }[];
  [key: string]: unknown;
}

/**
 * A fake OpenAI-compatible server for tests: `POST /v1/chat/completions` (streamed as
 * server-sent events, or as one JSON answer) and `GET /v1/models`, answering from a script
 * and recording every request, so tests can check what the model was sent.
 */
export class FakeLlm extends ScriptedServer<ChatRequest> {
  /** The bodies of the chat completions requests received. */
  get completions(): ChatRequest[] {
    return this.requests.flatMap((request) =>
      request.path === '/v1/chat/completions' && request.body ? [request.body] : [],
    );
  }

  protected route(request: RecordedRequest<ChatRequest>, response: ServerResponse): ChatRequest | null {
    if (request.method === 'GET' && request.path === '/v1/models') {
      sendJson(response, 200, {
        object: 'list',
        data: [{ id: this.model, object: 'model', created: 0, owned_by: 'fake-llm' }],
      });
      return null;
    }
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions' || !request.body) {
      sendJson(response, 404, {
        error: { message: `No route ${request.method} ${request.path}`, type: 'invalid_request_error' },
      });
      return null;
    }
    return request.body;
  }

  protected sendError(response: ServerResponse, reply: Pick<ErrorReply, 'status' | 'message' | 'headers'>): void {
    sendJson(
      response,
      reply.status,
      { error: { message: reply.message, type: 'fake_error', code: reply.status } },
      reply.headers,
    );
  }

  protected sendStreamError(response: ServerResponse, body: ChatRequest, reply: ErrorReply): void {
    const start = {
      id: 'chatcmpl-error',
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
    };
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    response.write(
      `data: ${JSON.stringify({ ...start, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`,
    );
    response.end(
      `data: ${JSON.stringify({ error: { message: reply.message, type: 'fake_error', code: reply.status } })}\n\n`,
    );
  }

  protected sendCompletion(response: ServerResponse, body: ChatRequest, reply: CompletionReply): void {
    const { number, usage } = this.nextCompletion({ messages: body.messages, tools: body.tools ?? [] }, reply);
    const calls = reply.toolCalls.map((call, index) => ({
      id: call.id ?? `call_${number}_${index}`,
      type: 'function' as const,
      function: { name: call.name, arguments: argumentsText(call.arguments) },
    }));
    const wireUsage = {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
      prompt_tokens_details: { cached_tokens: usage.cached_tokens },
    };
    const id = `chatcmpl-${number}`;
    const created = Math.floor(Date.now() / 1000);
    const finishReason = calls.length > 0 ? 'tool_calls' : 'stop';
    if (!body.stream) {
      const message = {
        role: 'assistant',
        content: reply.text || null,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      };
      sendJson(response, 200, {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: finishReason }],
        usage: wireUsage,
      });
      return;
    }

    // The reply as chunks: the role, the text in pieces, each tool call's name then its arguments in pieces, the finish reason, the usage.
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices, ...extra })}\n\n`;
    const delta = (content: Record<string, unknown>, reason: string | null = null) =>
      chunk([{ index: 0, delta: content, finish_reason: reason }]);
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    response.write(delta({ role: 'assistant', content: '' }));
    for (const piece of pieces(reply.text, 3)) response.write(delta({ content: piece }));
    calls.forEach((call, index) => {
      response.write(
        delta({
          tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
        }),
      );
      for (const piece of pieces(call.function.arguments, 3))
        response.write(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    response.write(delta({}, finishReason));
    if (body.stream_options?.include_usage) response.write(chunk([], { usage: wireUsage }));
    response.end('data: [DONE]\n\n');
  }
}
