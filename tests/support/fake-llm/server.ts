import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatRequest, CompletionReply, FakeReply, FakeUsage } from './script.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: ChatRequest | null;
}

const estimate = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);

/**
 * A fake OpenAI-compatible server on 127.0.0.1 for tests: `POST /v1/chat/completions`
 * (streamed as server-sent events, or as one JSON answer) and `GET /v1/models`, answering
 * from a script and recording every request, so tests can check what the model was sent.
 * It speaks the wire protocol only; it knows nothing of the code under test.
 */
export class FakeLlm {
  readonly requests: RecordedRequest[] = [];
  private readonly script: FakeReply[] = [];
  private server: Server | null = null;
  private completionCount = 0;
  private readonly openResponses = new Set<ServerResponse>();
  /** Hanging requests the client gave up on (closed its connection). */
  abandoned = 0;

  constructor(readonly model = 'fake-model') {}

  /** Queues replies, answered in order. */
  enqueue(...replies: FakeReply[]): this {
    this.script.push(...replies);
    return this;
  }

  /** Hanging requests still open. */
  get openRequests(): number {
    return this.openResponses.size;
  }

  /** Replies not used yet. */
  get remaining(): number {
    return this.script.length;
  }

  /** The bodies of the chat completions requests received. */
  get completions(): ChatRequest[] {
    return this.requests.flatMap((request) => (request.path === '/v1/chat/completions' && request.body ? [request.body] : []));
  }

  async start(): Promise<string> {
    const server = createServer((request, response) => void this.answer(request, response));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `${this.url}/v1`;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('The fake LLM is not started');
    return `http://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    const open = [...this.openResponses];
    this.openResponses.clear();
    for (const response of open) response.destroy();
    const server = this.server;
    if (server) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Clients keep connections alive between requests; do not wait for them to time out.
      server.closeAllConnections();
      await closed;
    }
    this.server = null;
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const body = text ? (JSON.parse(text) as ChatRequest) : null;
    this.requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body });

    if (request.method === 'GET' && path === '/v1/models') {
      return json(response, 200, { object: 'list', data: [{ id: this.model, object: 'model', created: 0, owned_by: 'fake-llm' }] });
    }
    if (request.method !== 'POST' || path !== '/v1/chat/completions' || !body) {
      return json(response, 404, { error: { message: `No route ${request.method} ${path}`, type: 'invalid_request_error' } });
    }
    const index = this.script.findIndex((candidate) => !candidate.when || candidate.when(body));
    const scripted = index === -1 ? undefined : this.script.splice(index, 1)[0];
    if (!scripted) {
      return json(response, 500, { error: { message: 'fake LLM: the script has no reply for this request', type: 'server_error' } });
    }
    if (scripted.delayMs) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
    switch (scripted.kind) {
      case 'hang':
        this.openResponses.add(response);
        response.on('close', () => {
          if (this.openResponses.delete(response)) this.abandoned++;
        });
        return;
      case 'error':
        return json(response, scripted.status, { error: { message: scripted.message, type: 'fake_error', code: scripted.status } }, scripted.headers);
      case 'completion':
        return body.stream ? this.stream(response, body, scripted) : this.complete(response, body, scripted);
    }
  }

  private toolCalls(reply: CompletionReply) {
    this.completionCount++;
    return reply.toolCalls.map((call, index) => ({
      id: call.id ?? `call_${this.completionCount}_${index}`,
      type: 'function' as const,
      function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
    }));
  }

  private usage(body: ChatRequest, reply: CompletionReply, calls: unknown[]) {
    const usage: FakeUsage = {
      prompt_tokens: reply.usage?.prompt_tokens ?? estimate(body.messages) + estimate(body.tools ?? []),
      completion_tokens: reply.usage?.completion_tokens ?? Math.max(1, estimate(reply.text) + estimate(calls)),
      cached_tokens: reply.usage?.cached_tokens ?? 0,
    };
    return {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
      prompt_tokens_details: { cached_tokens: usage.cached_tokens },
    };
  }

  private complete(response: ServerResponse, body: ChatRequest, reply: CompletionReply): void {
    const calls = this.toolCalls(reply);
    json(response, 200, {
      id: `chatcmpl-${this.completionCount}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: reply.text || null, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
          finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage: this.usage(body, reply, calls),
    });
  }

  /** The reply as chunks: the role, the text in pieces, each tool call's name then its arguments in pieces, the finish reason, the usage. */
  private stream(response: ServerResponse, body: ChatRequest, reply: CompletionReply): void {
    const calls = this.toolCalls(reply);
    const id = `chatcmpl-${this.completionCount}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices, ...extra })}\n\n`;
    const delta = (content: Record<string, unknown>, finishReason: string | null = null) => chunk([{ index: 0, delta: content, finish_reason: finishReason }]);

    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    response.write(delta({ role: 'assistant', content: '' }));
    for (const piece of pieces(reply.text, 3)) response.write(delta({ content: piece }));
    calls.forEach((call, index) => {
      response.write(delta({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
      for (const piece of pieces(call.function.arguments, 3)) response.write(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    response.write(delta({}, calls.length > 0 ? 'tool_calls' : 'stop'));
    if (body.stream_options?.include_usage) response.write(chunk([], { usage: this.usage(body, reply, calls) }));
    response.end('data: [DONE]\n\n');
  }
}

/** `text` cut into `count` pieces (fewer when it is short), as a streaming model sends it. */
function pieces(text: string, count: number): string[] {
  if (!text) return [];
  const size = Math.ceil(text.length / count);
  return Array.from({ length: Math.ceil(text.length / size) }, (_, index) => text.slice(index * size, (index + 1) * size));
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}
