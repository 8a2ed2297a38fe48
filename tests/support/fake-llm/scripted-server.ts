import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CompletionReply, ErrorReply, FakeReply, FakeUsage, ModelRequest } from './script.ts';

export interface RecordedRequest<Body = unknown> {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Body | null;
}

/** A rough token count: four characters a token. */
export const estimateTokens = (value: unknown) => Math.ceil(JSON.stringify(value ?? '').length / 4);

/**
 * The HTTP side of a fake model provider on 127.0.0.1: records every request, answers model
 * calls from the script (in order, honouring `when`, delays and hanging replies) and leaves
 * the wire format of answers and errors to the provider's subclass. It knows nothing of the
 * code under test.
 */
export abstract class ScriptedServer<Body extends ModelRequest> {
  readonly requests: RecordedRequest<Body>[] = [];
  private readonly script: FakeReply[] = [];
  private server: Server | null = null;
  private readonly openResponses = new Set<ServerResponse>();
  /** Hanging requests the client gave up on (closed its connection). */
  abandoned = 0;
  private completionCount = 0;

  constructor(readonly model = 'fake-model') {}

  /**
   * Answers what is not a model call (listings, unknown routes, requests the real API would
   * refuse) and returns null; returns the body of a model call for the script to answer.
   */
  protected abstract route(request: RecordedRequest<Body>, response: ServerResponse): Body | null;
  /** An error answer in the provider's format. */
  protected abstract sendError(
    response: ServerResponse,
    reply: Pick<ErrorReply, 'status' | 'message' | 'headers'>,
  ): void;
  /** A streamed answer that starts, then reports the error as the provider does mid-stream. */
  protected abstract sendStreamError(response: ServerResponse, body: Body, reply: ErrorReply): void;
  protected abstract sendCompletion(response: ServerResponse, body: Body, reply: CompletionReply): void;

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

  /** Starts listening; returns the base URL a client is configured with (`…/v1`). */
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

  /**
   * Counts a completion: its number (for response and tool call ids) and its token counts,
   * scripted or estimated from the prompt and the reply.
   */
  protected nextCompletion(prompt: unknown, reply: CompletionReply): { number: number; usage: FakeUsage } {
    const usage = {
      prompt_tokens: reply.usage?.prompt_tokens ?? estimateTokens(prompt),
      completion_tokens:
        reply.usage?.completion_tokens ?? Math.max(1, estimateTokens(reply.text) + estimateTokens(reply.toolCalls)),
      cached_tokens: reply.usage?.cached_tokens ?? 0,
      cache_write_tokens: reply.usage?.cache_write_tokens ?? 0,
    };
    return { number: ++this.completionCount, usage };
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    let parsed: Body | null;
    try {
      parsed = text ? (JSON.parse(text) as Body) : null;
    } catch {
      return this.sendError(response, { status: 400, message: 'The request body is not valid JSON' });
    }
    const recorded = { method: request.method ?? 'GET', path, headers: request.headers, body: parsed };
    this.requests.push(recorded);
    const body = this.route(recorded, response);
    if (!body) return;

    const index = this.script.findIndex((candidate) => !candidate.when || candidate.when(body));
    const scripted = index === -1 ? undefined : this.script.splice(index, 1)[0];
    if (!scripted)
      return this.sendError(response, { status: 500, message: 'fake LLM: the script has no reply for this request' });
    if (scripted.delayMs) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
    if (scripted.until) await scripted.until;
    switch (scripted.kind) {
      case 'hang':
        this.openResponses.add(response);
        response.on('close', () => {
          if (this.openResponses.delete(response)) this.abandoned++;
        });
        return;
      case 'error':
        return scripted.inStream && body.stream
          ? this.sendStreamError(response, body, scripted)
          : this.sendError(response, scripted);
      case 'completion':
        return this.sendCompletion(response, body, scripted);
    }
  }
}

/** `text` cut into `count` pieces (fewer when it is short), as a streaming model sends it. */
export function pieces(text: string, count: number): string[] {
  if (!text) return [];
  const size = Math.ceil(text.length / count);
  return Array.from({ length: Math.ceil(text.length / size) }, (_, index) =>
    text.slice(index * size, (index + 1) * size),
  );
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Arguments as the wire carries them: objects as JSON, strings (scripted malformed arguments) as they are. */
export const argumentsText = (args: Record<string, unknown> | string) =>
  typeof args === 'string' ? args : JSON.stringify(args);
