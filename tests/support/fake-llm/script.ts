/**
 * What the fake model answers, one scripted reply per request, in order. A reply with
 * `when` only answers a request it matches (the first queued reply that matches answers),
 * so a test can script a side request, such as the title, that may arrive at any moment.
 * The same scripts drive every fake provider (OpenAI-compatible, Anthropic): each speaks
 * them in its own wire protocol.
 */

/** What every provider's request body has and a script may look at. */
export interface ModelRequest {
  model: string;
  stream?: boolean;
  tools?: readonly unknown[];
}

export type RequestMatcher = (request: ModelRequest) => boolean;

export interface FakeUsage {
  /** Every prompt token, cached ones included (OpenAI counts so; the Anthropic fake splits them). */
  prompt_tokens: number;
  completion_tokens: number;
  /** Prompt tokens read from the provider's cache. */
  cached_tokens: number;
  /** Prompt tokens written to the cache (Anthropic reports them; OpenAI does not). */
  cache_write_tokens: number;
}

export interface FakeToolCall {
  name: string;
  /** An object is sent as JSON; a string is sent as is (to script malformed arguments). */
  arguments: Record<string, unknown> | string;
  id?: string;
}

interface ReplyBase {
  when?: RequestMatcher;
  /** Milliseconds before the answer starts. */
  delayMs?: number;
  /** The answer starts once this settles: a test holds the agent at a step until it has seen it there. */
  until?: Promise<unknown>;
}

export interface CompletionReply extends ReplyBase {
  kind: 'completion';
  text: string;
  toolCalls: FakeToolCall[];
  /** Token counts to report; by default estimated from the request and the reply (four characters a token). */
  usage?: Partial<FakeUsage>;
}

export interface ErrorReply extends ReplyBase {
  kind: 'error';
  status: number;
  message: string;
  headers?: Record<string, string>;
  /**
   * Sent inside a streamed answer that has already started (HTTP 200), as providers report
   * an overload mid-stream; a request without streaming gets it as the HTTP error.
   */
  inStream?: boolean;
}

/** Never answers: the request stays open until the client gives up (to test aborting a call). */
export interface HangReply extends ReplyBase {
  kind: 'hang';
}

export type FakeReply = CompletionReply | ErrorReply | HangReply;

type Options = ReplyBase & { usage?: Partial<FakeUsage> };

export const reply = {
  text: (text: string, options: Options = {}): CompletionReply => ({
    kind: 'completion',
    text,
    toolCalls: [],
    ...options,
  }),
  toolCalls: (toolCalls: FakeToolCall[], options: Options & { text?: string } = {}): CompletionReply => ({
    kind: 'completion',
    text: '',
    toolCalls,
    ...options,
  }),
  toolCall: (
    name: string,
    args: FakeToolCall['arguments'],
    options: Options & { text?: string } = {},
  ): CompletionReply => ({
    kind: 'completion',
    text: '',
    toolCalls: [{ name, arguments: args }],
    ...options,
  }),
  error: (
    status: number,
    message = `HTTP ${status}`,
    options: ReplyBase & Pick<ErrorReply, 'headers' | 'inStream'> = {},
  ): ErrorReply => ({
    kind: 'error',
    status,
    message,
    ...options,
  }),
  hang: (options: ReplyBase = {}): HangReply => ({ kind: 'hang', ...options }),
};

/** Matches requests without tools: the agent's side calls (the title), not its steps. */
export const withoutTools: RequestMatcher = (request) => !request.tools || request.tools.length === 0;
/** Matches the agent's steps. */
export const withTools: RequestMatcher = (request) => (request.tools?.length ?? 0) > 0;
