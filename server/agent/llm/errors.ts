import { APICallError } from '@ai-sdk/provider';

/**
 * A failed model call, classified: retryable failures (rate limits, server errors, network
 * errors) are retried with backoff while the agent shows RATE_LIMITED; the others end the
 * run with `reason` shown to the user and `errorId` as the translation key.
 */
export class ModelCallError extends Error {
  readonly reason: string;
  readonly retryable: boolean;
  readonly errorId: string;
  /** The provider's Retry-After, when it sent one. */
  readonly retryAfterMs: number | null;
  /** The prompt did not fit the model's context window: condensing and calling again can help. */
  readonly contextExceeded: boolean;

  constructor(fields: {
    reason: string;
    retryable: boolean;
    errorId: string;
    retryAfterMs?: number | null;
    contextExceeded?: boolean;
  }) {
    super(fields.reason);
    this.name = 'ModelCallError';
    this.reason = fields.reason;
    this.retryable = fields.retryable;
    this.errorId = fields.errorId;
    this.retryAfterMs = fields.retryAfterMs ?? null;
    this.contextExceeded = fields.contextExceeded ?? false;
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function causeCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function retryAfterMs(headers: Record<string, string> | undefined): number | null {
  const millis = Number(headers?.['retry-after-ms']);
  if (Number.isFinite(millis) && millis >= 0) return millis;
  const seconds = Number(headers?.['retry-after']);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

/** The provider's own explanation, from the usual `{"error": {"message": ...}}` body. */
function providerMessage(error: APICallError): string {
  try {
    const body = JSON.parse(error.responseBody ?? '') as { error?: { message?: unknown } | string; message?: unknown };
    const nested = typeof body.error === 'object' ? body.error?.message : body.error;
    const message = nested ?? body.message;
    if (typeof message === 'string' && message) return message;
  } catch {
    // Not JSON: the SDK's message is the best there is.
  }
  return error.message;
}

const CONTEXT_EXCEEDED =
  /context.{0,20}(length|window)|maximum context|too many tokens|prompt is too long|input is too long/i;
const CONTENT_POLICY = /content.?(policy|filter|management)/i;

/** An HTTP answer of the provider, classified by status and message. */
function fromResponse(status: number, message: string, headers: Record<string, string> | undefined): ModelCallError {
  const fail = (what: string, errorId: string, extra: { retryable?: boolean; contextExceeded?: boolean } = {}) =>
    new ModelCallError({
      reason: `${what} (HTTP ${status}): ${message}`,
      errorId,
      retryable: extra.retryable ?? false,
      contextExceeded: extra.contextExceeded ?? false,
      retryAfterMs: extra.retryable ? retryAfterMs(headers) : null,
    });
  if (status === 429)
    return fail('The model provider is rate limiting requests', 'STATUS$ERROR_LLM_RATE_LIMITED', { retryable: true });
  if (status === 401 || status === 403)
    return fail('The model provider rejected the API key', 'STATUS$ERROR_LLM_AUTHENTICATION');
  if (status === 402) return fail('The model provider account is out of credits', 'STATUS$ERROR_LLM_OUT_OF_CREDITS');
  if (status === 404)
    return fail('The model was not found; check the model name and the base URL', 'STATUS$ERROR_LLM_NOT_FOUND');
  if (CONTEXT_EXCEEDED.test(message)) {
    return fail("The conversation no longer fits the model's context window", 'STATUS$ERROR_LLM_CONTEXT_WINDOW', {
      contextExceeded: true,
    });
  }
  if (CONTENT_POLICY.test(message))
    return fail(
      'The model provider refused the request under its content policy',
      'STATUS$ERROR_LLM_CONTENT_POLICY_VIOLATION',
    );
  if (status === 500)
    return fail('The model provider had an internal error', 'STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR', {
      retryable: true,
    });
  if (status === 408 || status === 409 || status > 500) {
    return fail('The model provider is unavailable', 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE', { retryable: true });
  }
  return fail('The model provider rejected the request', 'STATUS$ERROR_LLM_BAD_REQUEST');
}

/** Anthropic's `error.type`s, as the HTTP status it answers them with outside a stream. */
const ANTHROPIC_ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/**
 * An error the provider sent inside a streamed answer, which the SDK passes on as the object it
 * parsed — Anthropic's `{type: 'overloaded_error', message}`, an OpenAI-compatible server's
 * `{message, type, code}` — with the HTTP status it stands for, when that is known.
 */
function streamedError(error: unknown): { status: number | null; message: string } | null {
  if (typeof error !== 'object' || error === null || error instanceof Error) return null;
  const { message, type, code } = error as { message?: unknown; type?: unknown; code?: unknown };
  if (typeof message !== 'string') return null;
  const status =
    typeof code === 'number' ? code : typeof type === 'string' ? (ANTHROPIC_ERROR_STATUS[type] ?? null) : null;
  return { status, message };
}

export function classifyModelError(error: unknown): ModelCallError {
  if (error instanceof ModelCallError) return error;
  if (APICallError.isInstance(error) && error.statusCode !== undefined)
    return fromResponse(error.statusCode, providerMessage(error), error.responseHeaders);
  const streamed = streamedError(error);
  if (streamed?.status) return fromResponse(streamed.status, streamed.message, undefined);
  if (streamed)
    return new ModelCallError({
      reason: `The model call failed: ${streamed.message}`,
      retryable: false,
      errorId: 'STATUS$ERROR_LLM_UNKNOWN',
    });
  const message = error instanceof Error ? error.message : String(error);
  const code = causeCode(error);
  const unreachable =
    (APICallError.isInstance(error) && error.isRetryable) ||
    (code !== undefined && NETWORK_CODES.has(code)) ||
    /fetch failed|socket hang up/i.test(message);
  if (unreachable) {
    return new ModelCallError({
      reason: `The model provider could not be reached: ${message}`,
      retryable: true,
      errorId: 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE',
    });
  }
  return new ModelCallError({
    reason: `The model call failed: ${message}`,
    retryable: false,
    errorId: 'STATUS$ERROR_LLM_UNKNOWN',
  });
}
