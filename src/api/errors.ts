import { validationSentence } from './validation-text.ts';

/** A response the server answered with a non-success status; `body` is its parsed JSON, if any. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(bodyText(body));
    this.name = 'ApiError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * The spec's error-text rule on an error body: a `detail` list of `msg` entries (joined by newline),
 * then `error`, then `message`, then a `detail` string.
 */
function bodyText(body: unknown): string {
  if (!isRecord(body)) return '';
  if (Array.isArray(body.detail)) {
    // A rule the client can word is said in the user's language; others keep the server's text.
    const messages = body.detail.flatMap((item) => {
      if (!isRecord(item)) return [];
      const worded = validationSentence(item);
      if (worded) return [worded];
      return nonEmptyString(item.msg) ? [item.msg] : [];
    });
    if (messages.length > 0) return messages.join('\n');
  }
  return [body.error, body.message, body.detail].find(nonEmptyString) ?? '';
}

/** The text to show for any error: the body rule for server answers, else the plain error message. */
export function errorText(error: unknown): string {
  const fromBody = bodyText(error instanceof ApiError ? error.body : error);
  if (fromBody) return fromBody;
  return error instanceof Error ? error.message : '';
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

const EMAIL_NOT_VERIFIED = /email[\s_-]*not[\s_-]*verified/i;

/** A 403 whose body says the email address is not verified yet. */
export function isEmailNotVerified(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && EMAIL_NOT_VERIFIED.test(JSON.stringify(error.body) ?? '');
}
