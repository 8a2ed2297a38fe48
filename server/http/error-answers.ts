import {
  Conflict,
  DomainError,
  Forbidden,
  InvalidInput,
  NotAuthenticated,
  NotFound,
  NotSetUp,
  PaymentRequired,
  RateLimited,
  TooLarge,
  Unavailable,
  UploadTooLarge,
  UpstreamFailed,
  ValidationFailure,
} from '../shared/domain-errors.ts';

interface Answer<E> {
  status: number;
  headers?: (error: E) => Record<string, string>;
}

type ErrorClass<E> = abstract new (...args: never[]) => E;

const answer = <E>(kind: ErrorClass<E>, status: number, headers?: (error: E) => Record<string, string>) =>
  [kind, { status, headers }] as [ErrorClass<unknown>, Answer<unknown>];

/** Each refusal's HTTP answer; a subclass without a row of its own answers as its parent. */
export const ERROR_ANSWERS = new Map([
  answer(InvalidInput, 400),
  answer(NotAuthenticated, 401),
  answer(PaymentRequired, 402),
  answer(Forbidden, 403),
  answer(NotFound, 404),
  answer(Conflict, 409),
  answer(TooLarge, 413),
  // A kept-alive connection would leave the client writing the unread rest into a socket nobody reads.
  answer(UploadTooLarge, 413, () => ({ connection: 'close' })),
  answer(ValidationFailure, 422),
  answer(RateLimited, 429, (error) => ({ 'retry-after': String(error.retryAfterSeconds) })),
  answer(NotSetUp, 501),
  answer(UpstreamFailed, 502),
  answer(Unavailable, 503),
]);

/** The contract's answer to a refusal: its status, headers and `{"detail": ...}` body; null for anything else. */
export function errorAnswer(error: unknown) {
  if (!(error instanceof DomainError || error instanceof ValidationFailure)) return null;
  for (let kind = error.constructor; kind !== Error; kind = Object.getPrototypeOf(kind) as typeof kind) {
    const found = ERROR_ANSWERS.get(kind as ErrorClass<unknown>);
    if (found)
      return {
        status: found.status,
        headers: found.headers?.(error) ?? {},
        body: { detail: error instanceof ValidationFailure ? error.items : error.detail },
      };
  }
  throw new Error(`${error.constructor.name} has no HTTP answer`);
}
