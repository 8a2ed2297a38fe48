import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';
import { classifyModelError, ModelCallError } from './errors.ts';

const apiError = (statusCode: number | undefined, message: string, headers: Record<string, string> = {}) =>
  new APICallError({
    message: `API error ${statusCode}`,
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: JSON.stringify({ error: { message } }),
    isRetryable: statusCode === undefined,
  });

describe('classifyModelError', () => {
  it.each([
    [429, 'slow down', true, 'STATUS$ERROR_LLM_RATE_LIMITED'],
    [500, 'oops', true, 'STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR'],
    [503, 'overloaded', true, 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE'],
    [529, 'overloaded', true, 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE'],
    [401, 'bad key', false, 'STATUS$ERROR_LLM_AUTHENTICATION'],
    [403, 'forbidden', false, 'STATUS$ERROR_LLM_AUTHENTICATION'],
    [402, 'no money', false, 'STATUS$ERROR_LLM_OUT_OF_CREDITS'],
    [404, 'The model `gpt-9` does not exist', false, 'STATUS$ERROR_LLM_NOT_FOUND'],
    [400, "This model's maximum context length is 128000 tokens", false, 'STATUS$ERROR_LLM_CONTEXT_WINDOW'],
    [
      400,
      'Your request was rejected by our content management policy',
      false,
      'STATUS$ERROR_LLM_CONTENT_POLICY_VIOLATION',
    ],
    [422, 'unprocessable', false, 'STATUS$ERROR_LLM_BAD_REQUEST'],
  ])('HTTP %i (%s): retryable %s, %s', (status, message, retryable, errorId) => {
    const classified = classifyModelError(apiError(status, message));
    expect(classified).toMatchObject({ retryable, errorId });
    expect(classified.reason).toContain(`(HTTP ${status}): ${message}`);
  });

  it('flags a prompt that does not fit, so the agent can condense and call again', () => {
    expect(
      classifyModelError(apiError(400, 'prompt is too long: 210000 tokens > 200000 maximum')).contextExceeded,
    ).toBe(true);
  });

  it('keeps the Retry-After of a rate limit', () => {
    expect(classifyModelError(apiError(429, 'wait', { 'retry-after': '7' })).retryAfterMs).toBe(7000);
    expect(classifyModelError(apiError(429, 'wait', { 'retry-after-ms': '250' })).retryAfterMs).toBe(250);
  });

  it('retries network failures', () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    expect(classifyModelError(refused)).toMatchObject({
      retryable: true,
      errorId: 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE',
    });
    expect(classifyModelError(apiError(undefined, 'Cannot connect to API'))).toMatchObject({ retryable: true });
  });

  it('classifies an error sent inside a started stream by the HTTP status it stands for', () => {
    expect(classifyModelError({ type: 'overloaded_error', message: 'Overloaded' })).toMatchObject({
      retryable: true,
      errorId: 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE',
      reason: 'The model provider is unavailable (HTTP 529): Overloaded',
    });
    expect(classifyModelError({ message: 'Slow down', type: 'requests', code: 429 })).toMatchObject({
      retryable: true,
      errorId: 'STATUS$ERROR_LLM_RATE_LIMITED',
    });
    expect(classifyModelError({ type: 'mystery_error', message: 'odd' })).toMatchObject({
      retryable: false,
      reason: 'The model call failed: odd',
    });
  });

  it('does not retry anything else, and passes classified errors through', () => {
    expect(classifyModelError(new Error('surprise'))).toMatchObject({
      retryable: false,
      reason: 'The model call failed: surprise',
    });
    const known = new ModelCallError({ reason: 'x', retryable: false, errorId: 'Y' });
    expect(classifyModelError(known)).toBe(known);
  });
});

describe('backoffDelay', () => {
  const policy = { maxRetries: 5, initialDelayMs: 1000, maxDelayMs: 10_000 };

  it('doubles from the initial delay up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(policy, retry, null))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });

  it('waits at least what the provider asked for, within the cap', () => {
    expect(backoffDelay(policy, 1, 3000)).toBe(3000);
    expect(backoffDelay(policy, 1, 3_600_000)).toBe(10_000);
  });
});
