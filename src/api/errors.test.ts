import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import common from '../../locales/de/common.json';
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

  it("words a contract rule in the user's language, naming the field, and keeps the server's text for others", async () => {
    await i18next.init({ lng: 'de', resources: { de: { common } } });
    const error = new ApiError(422, {
      detail: [
        {
          loc: ['body', 'password'],
          msg: 'password must NOT have fewer than 8 characters',
          type: 'minLength',
          ctx: { limit: 8 },
        },
        {
          loc: ['body'],
          msg: "body must have required property 'email'",
          type: 'required',
          ctx: { missingProperty: 'email' },
        },
        { loc: ['body', 'code'], msg: 'code must match pattern', type: 'pattern', ctx: { pattern: '^[a-z]+$' } },
        { loc: ['body', 'iban'], msg: 'Unknown bank', type: 'bank_rule' },
      ],
    });
    expect(errorText(error)).toBe(
      [
        'Passwort muss mindestens 8 Zeichen lang sein.',
        'E-Mail-Adresse ist erforderlich.',
        'Link-Code enthält Zeichen, die hier nicht erlaubt sind.',
        'Unknown bank',
      ].join('\n'),
    );
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
