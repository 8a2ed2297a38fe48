/** An error that becomes `{"detail": ...}` with its status; thrown by handlers and services. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const notFound = (what = 'Not found') => new HttpError(404, what);
export const unauthorized = () => new HttpError(401, 'Not authenticated');

/** A 422 in the contract's validation shape: `{"detail": [{loc, msg, type}]}`. */
export class ValidationFailure extends Error {
  constructor(readonly items: { loc: (string | number)[]; msg: string; type: string }[]) {
    super(items.map((i) => i.msg).join('\n'));
  }
}

/** Spec §6: an account that has not finished registration onboarding reaches only that. */
export const INACTIVE_ACCOUNT = 'Please complete registration onboarding first.';
