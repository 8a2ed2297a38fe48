import { HttpError } from '../../shared/http-error.ts';

/** A new mailed link at most once a minute per user, counted in the database so every node agrees. */
export const RESEND_INTERVAL_MS = 60_000;

/** 429 with the seconds left when the last link (`lastSentAt`) went out less than a minute ago. */
export function refuseEarlyResend(lastSentAt: Date | undefined, now: number, what: string) {
  const wait = lastSentAt ? lastSentAt.getTime() + RESEND_INTERVAL_MS - now : 0;
  if (wait <= 0) return;
  const seconds = Math.ceil(wait / 1000);
  throw new HttpError(429, `${what} was sent a moment ago. Please try again in ${seconds} seconds.`, {
    'retry-after': String(seconds),
  });
}
