import { describe, expect, it } from 'vitest';
import type { Settings } from '../../api/client.ts';
import { applicationChanges, applicationDraft, applicationErrors } from './application-form.ts';

const saved = {
  language: 'de',
  enable_sound_notifications: true,
  user_consents_to_analytics: null,
  enable_proactive_conversation_starters: false,
  git_user_name: 'atelier',
  git_user_email: 'atelier@localhost.localdomain',
  max_budget_per_task: 2.5,
} as Settings;

describe('application settings form', () => {
  it('is filled from the saved settings, or the defaults and the page language when none are saved', () => {
    expect(applicationDraft(saved, 'en')).toEqual({
      language: 'de',
      enable_sound_notifications: true,
      user_consents_to_analytics: false,
      enable_proactive_conversation_starters: false,
      git_user_name: 'atelier',
      git_user_email: 'atelier@localhost.localdomain',
      max_budget_per_task: '2.5',
    });
    expect(applicationDraft(null, 'fr')).toMatchObject({
      language: 'fr',
      enable_sound_notifications: false,
      max_budget_per_task: '',
    });
  });

  it('sends only what changed', () => {
    const before = applicationDraft(saved, 'en');
    expect(applicationChanges(before, before)).toEqual({});
    expect(applicationChanges(before, { ...before, language: 'fr', enable_sound_notifications: false })).toEqual({
      language: 'fr',
      enable_sound_notifications: false,
    });
  });

  it('sends an emptied budget or git identity as null and a typed budget as dollars', () => {
    const before = applicationDraft(saved, 'en');
    expect(applicationChanges(before, { ...before, max_budget_per_task: ' ' })).toEqual({ max_budget_per_task: null });
    expect(applicationChanges(before, { ...before, max_budget_per_task: '10' })).toEqual({ max_budget_per_task: 10 });
    expect(applicationChanges(before, { ...before, git_user_name: '' })).toEqual({ git_user_name: null });
    expect(applicationChanges(before, { ...before, git_user_email: ' me@acme.example ' })).toEqual({
      git_user_email: 'me@acme.example',
    });
  });

  it('refuses a budget that is not a positive amount up to $100,000 and a malformed git email', () => {
    const draft = applicationDraft(saved, 'en');
    expect(applicationErrors(draft)).toEqual({});
    expect(applicationErrors({ ...draft, max_budget_per_task: 'ten' })).toEqual({
      max_budget_per_task: 'budgetNotANumber',
    });
    expect(applicationErrors({ ...draft, max_budget_per_task: '0' })).toEqual({
      max_budget_per_task: 'budgetOutOfRange',
    });
    expect(applicationErrors({ ...draft, max_budget_per_task: '100001' })).toEqual({
      max_budget_per_task: 'budgetOutOfRange',
    });
    expect(applicationErrors({ ...draft, max_budget_per_task: '' })).toEqual({});
    expect(applicationErrors({ ...draft, git_user_email: 'not an email' })).toEqual({
      git_user_email: 'gitEmailInvalid',
    });
  });
});
