/**
 * What the fake model answers, one scripted reply per request, in order. A reply with
 * `when` only answers a request it matches (the first queued reply that matches answers),
 * so a test can script a side request, such as the title, that may arrive at any moment.
 */

/** The parsed JSON body of a chat completions request. */
export interface ChatRequest {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools?: { type: 'function'; function: { name: string; description?: string; parameters?: unknown } }[];
  [key: string]: unknown;
}

export type RequestMatcher = (request: ChatRequest) => boolean;

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
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
}

/** Never answers: the request stays open until the client gives up (to test aborting a call). */
export interface HangReply extends ReplyBase {
  kind: 'hang';
}

export type FakeReply = CompletionReply | ErrorReply | HangReply;

type Options = ReplyBase & { usage?: Partial<FakeUsage> };

export const reply = {
  text: (text: string, options: Options = {}): CompletionReply => ({ kind: 'completion', text, toolCalls: [], ...options }),
  toolCalls: (toolCalls: FakeToolCall[], options: Options & { text?: string } = {}): CompletionReply => ({ kind: 'completion', text: '', toolCalls, ...options }),
  toolCall: (name: string, args: FakeToolCall['arguments'], options: Options & { text?: string } = {}): CompletionReply => ({
    kind: 'completion',
    text: '',
    toolCalls: [{ name, arguments: args }],
    ...options,
  }),
  error: (status: number, message = `HTTP ${status}`, options: ReplyBase & { headers?: Record<string, string> } = {}): ErrorReply => ({
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
