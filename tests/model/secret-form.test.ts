import { describe, expect, it } from 'vitest';
import { createSecretBody, secretDraftErrors, updateSecretBody } from '../../machines/secret-form.ts';

const draft = (name: string, value = 'v', description = '') => ({ name, value, description });

describe('secret form', () => {
  it('takes environment-variable names and refuses the rest', () => {
    expect(secretDraftErrors(draft('GITHUB_TOKEN'), false)).toEqual({});
    expect(secretDraftErrors(draft('_private2'), false)).toEqual({});
    expect(secretDraftErrors(draft('  '), false)).toEqual({ name: 'nameRequired' });
    expect(secretDraftErrors(draft('2FA'), false)).toEqual({ name: 'namePattern' });
    expect(secretDraftErrors(draft('MY-KEY'), false)).toEqual({ name: 'namePattern' });
    expect(secretDraftErrors(draft('A'.repeat(101)), false)).toEqual({ name: 'nameTooLong' });
  });

  it('refuses the names the workspace itself uses', () => {
    expect(secretDraftErrors(draft('PATH'), false)).toEqual({ name: 'nameReserved' });
    expect(secretDraftErrors(draft('GIT_AUTHOR_NAME'), false)).toEqual({ name: 'nameReserved' });
    expect(secretDraftErrors(draft('PATHS'), false)).toEqual({});
  });

  it('needs a value for a new secret only', () => {
    expect(secretDraftErrors(draft('KEY', ''), false)).toEqual({ value: 'valueRequired' });
    expect(secretDraftErrors(draft('KEY', ''), true)).toEqual({});
  });

  it('limits the description to 500 characters', () => {
    expect(secretDraftErrors(draft('KEY', 'v', 'd'.repeat(501)), false)).toEqual({ description: 'descriptionTooLong' });
    expect(secretDraftErrors(draft('KEY', 'v', 'd'.repeat(500)), false)).toEqual({});
  });

  it('creates with the value as typed and a trimmed description or none', () => {
    expect(createSecretBody(draft(' KEY ', ' a b ', ''))).toEqual({ name: 'KEY', value: ' a b ', description: null });
    expect(createSecretBody(draft('KEY', 'v', ' Used for deploys '))).toEqual({
      name: 'KEY',
      value: 'v',
      description: 'Used for deploys',
    });
  });

  it('sends only what changed when editing, and nothing when nothing did', () => {
    const before = { name: 'KEY', description: 'old' };
    expect(updateSecretBody(before, draft('KEY', '', 'old'))).toBeNull();
    expect(updateSecretBody(before, draft('NEW_KEY', '', 'old'))).toEqual({ name: 'NEW_KEY' });
    expect(updateSecretBody(before, draft('KEY', 'secret', 'old'))).toEqual({ value: 'secret' });
    expect(updateSecretBody(before, draft('KEY', '', ''))).toEqual({ description: null });
  });
});
