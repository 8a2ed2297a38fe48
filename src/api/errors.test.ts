import { describe, expect, it } from 'vitest';
import { ApiError, errorText, isEmailNotVerified, isUnauthorized } from './errors.ts';

describe('errorText', () => {
  it('joins the msg entries of a detail list with newlines', () => {
    const error = new ApiError(422, {
      detail: [
        { loc: ['body', 'email'], msg: 'Invalid email', type: 'format' },
        { loc: ['body', 'password'], msg: 'Too short', type: 'min_length' },
      ],
    });
    expect(errorText(error)).toBe('Invalid email\nToo short');
  });

  it('takes error before message before a detail string', () => {
    expect(errorText(new ApiError(400, { error: 'from error', message: 'from message', detail: 'from detail' }))).toBe(
      'from error',
    );
    expect(errorText(new ApiError(400, { message: 'from message', detail: 'from detail' }))).toBe('from message');
    expect(errorText(new ApiError(400, { detail: 'from detail' }))).toBe('from detail');
  });

  it('skips a detail list without msg entries and empty strings', () => {
    expect(errorText(new ApiError(400, { detail: [{ loc: [] }], error: '', message: 'next one' }))).toBe('next one');
  });

  it('falls back to the plain error message', () => {
    expect(errorText(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(errorText(new ApiError(500, '<html>oops</html>'))).toBe('');
    expect(errorText('not an error')).toBe('');
  });

  it('reads bodies that are not wrapped in an ApiError', () => {
    expect(errorText({ detail: 'plain body' })).toBe('plain body');
  });

  it('gives an ApiError the body text as its message', () => {
    expect(new ApiError(401, { detail: 'Invalid email or password.' }).message).toBe('Invalid email or password.');
  });
});

describe('error classification', () => {
  it('recognises a 401', () => {
    expect(isUnauthorized(new ApiError(401, { detail: 'Not authenticated' }))).toBe(true);
    expect(isUnauthorized(new ApiError(403, { detail: 'Not authenticated' }))).toBe(false);
    expect(isUnauthorized(new Error('401'))).toBe(false);
  });

  it('recognises a 403 saying the email is not verified', () => {
    expect(isEmailNotVerified(new ApiError(403, { detail: 'EmailNotVerifiedError: verify first' }))).toBe(true);
    expect(isEmailNotVerified(new ApiError(403, { detail: 'Email not verified' }))).toBe(true);
    expect(isEmailNotVerified(new ApiError(403, { error: 'email_not_verified' }))).toBe(true);
    expect(isEmailNotVerified(new ApiError(403, { detail: 'Forbidden' }))).toBe(false);
    expect(isEmailNotVerified(new ApiError(401, { detail: 'Email not verified' }))).toBe(false);
  });
});
