/**
 * Refusals as the domain states them. Each becomes `{"detail": ...}` with the status that
 * server/http/error-answers.ts gives its class: modules say what went wrong, only the edge knows HTTP.
 */
export abstract class DomainError extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}

/** The request asks for something that cannot be done as asked (a wrong value, a wrong state of the input). */
export class InvalidInput extends DomainError {}

/** No (or no longer a valid) session or token. */
export class NotAuthenticated extends DomainError {
  constructor(detail = 'Not authenticated') {
    super(detail);
  }
}

/** The credits do not cover the call, or the card was refused. */
export class PaymentRequired extends DomainError {}

/** The caller is known but may not do this. */
export class Forbidden extends DomainError {}

export class NotFound extends DomainError {
  constructor(detail = 'Not found') {
    super(detail);
  }
}

/** The request contradicts what exists already (a taken name, a finished step, work still running). */
export class Conflict extends DomainError {}

export class TooLarge extends DomainError {}

/** Too large, found while the body was still arriving: the rest is left unread. */
export class UploadTooLarge extends TooLarge {}

/** Too many calls for now; the caller may try again after `retryAfterSeconds`. */
export class RateLimited extends DomainError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(detail);
  }
}

/** This server lacks the setting or provider the call needs. */
export class NotSetUp extends DomainError {}

/** A service we called (a model, the mail server, the payment provider) failed. */
export class UpstreamFailed extends DomainError {}

/** Cannot be done now (a runtime not running, a provider unreachable or rate-limited); later may work. */
export class Unavailable extends DomainError {}

/** Fields that are wrong, each named by where it is: `{"detail": [{loc, msg, type}]}`. */
export class ValidationFailure extends Error {
  constructor(readonly items: { loc: (string | number)[]; msg: string; type: string }[]) {
    super(items.map((i) => i.msg).join('\n'));
  }
}

/** Spec §6: an account that has not finished registration onboarding reaches only that. */
export const INACTIVE_ACCOUNT = 'Please complete registration onboarding first.';
