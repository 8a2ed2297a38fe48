/** How retries of a failed model call are spaced. */
export interface RetryPolicy {
  /** Retries after the first attempt before the run ends in ERROR. */
  maxRetries: number;
  /** Wait before the first retry; each further retry waits twice as long. */
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 5, initialDelayMs: 2_000, maxDelayMs: 60_000 };

/**
 * Wait before retry number `retry` (1 for the first retry): exponential, capped, and never
 * shorter than what the provider asked for in Retry-After (itself capped, so a provider
 * asking for an hour does not freeze the conversation).
 */
export function backoffDelay(policy: RetryPolicy, retry: number, retryAfterMs: number | null): number {
  const exponential = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.min(policy.maxDelayMs, Math.max(exponential, retryAfterMs ?? 0));
}
