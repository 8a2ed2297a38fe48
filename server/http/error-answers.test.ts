import { describe, expect, it } from 'vitest';
import * as domainErrors from '../shared/domain-errors.ts';
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
import { ERROR_ANSWERS, errorAnswer } from './error-answers.ts';

describe('errorAnswer', () => {
  it.each([
    [InvalidInput, 400],
    [NotAuthenticated, 401],
    [PaymentRequired, 402],
    [Forbidden, 403],
    [NotFound, 404],
    [Conflict, 409],
    [TooLarge, 413],
    [UploadTooLarge, 413],
    [RateLimited, 429],
    [NotSetUp, 501],
    [UpstreamFailed, 502],
    [Unavailable, 503],
  ] as const)('answers %o with %i and its detail', (kind, status) => {
    expect(errorAnswer(new kind('what went wrong', 1))).toMatchObject({ status, body: { detail: 'what went wrong' } });
  });

  it('has a row for every refusal the domain can state', () => {
    const kinds = Object.values(domainErrors as Record<string, unknown>).filter(
      (value): value is new (detail: string, n: number) => DomainError =>
        typeof value === 'function' && value.prototype instanceof DomainError,
    );
    for (const kind of kinds) expect(errorAnswer(new kind('x', 1))?.status, kind.name).toBeGreaterThanOrEqual(400);
    // ...and no row for anything else: ValidationFailure is the one refusal with a body of its own.
    expect(ERROR_ANSWERS.size).toBe(kinds.length + 1);
  });

  it('keeps the default texts of the contract', () => {
    expect(errorAnswer(new NotAuthenticated())?.body).toEqual({ detail: 'Not authenticated' });
    expect(errorAnswer(new NotFound())?.body).toEqual({ detail: 'Not found' });
  });

  it('tells when to retry, and closes the connection of an upload left unread', () => {
    expect(errorAnswer(new RateLimited('slow down', 42))?.headers).toEqual({ 'retry-after': '42' });
    expect(errorAnswer(new UploadTooLarge('big'))?.headers).toEqual({ connection: 'close' });
    expect(errorAnswer(new TooLarge('big'))?.headers).toEqual({});
  });

  it('answers a validation failure with its items', () => {
    const items = [{ loc: ['body', 'name'], msg: 'name is required', type: 'missing' }];
    expect(errorAnswer(new ValidationFailure(items))).toEqual({ status: 422, headers: {}, body: { detail: items } });
  });

  it('answers a subclass without a row of its own as its parent', () => {
    class NameTaken extends Conflict {}
    expect(errorAnswer(new NameTaken('taken'))?.status).toBe(409);
  });

  it('leaves any other error to the handler (a 500), and refuses a refusal it has no row for', () => {
    expect(errorAnswer(new Error('bug'))).toBeNull();
    expect(errorAnswer('thrown text')).toBeNull();
    class Unmapped extends DomainError {}
    expect(() => errorAnswer(new Unmapped('x'))).toThrow('Unmapped has no HTTP answer');
  });
});
