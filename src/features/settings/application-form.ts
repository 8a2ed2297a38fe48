import type { Settings, SettingsUpdate } from '../../api/client.ts';

/** The Application tab's fields as the form holds them (the budget as typed). */
export interface ApplicationDraft {
  language: string;
  enable_sound_notifications: boolean;
  user_consents_to_analytics: boolean;
  enable_proactive_conversation_starters: boolean;
  git_user_name: string;
  git_user_email: string;
  max_budget_per_task: string;
}

export type ApplicationFieldError = 'budgetNotANumber' | 'budgetOutOfRange' | 'gitEmailInvalid';

/** The contract's bound on a task's budget, in dollars. */
const MAX_BUDGET_DOLLARS = 100_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form as the saved settings fill it; with none saved yet, the spec's defaults and the page's language. */
export function applicationDraft(settings: Settings | null, currentLanguage: string): ApplicationDraft {
  return {
    language: settings?.language ?? currentLanguage,
    enable_sound_notifications: settings?.enable_sound_notifications ?? false,
    user_consents_to_analytics: settings?.user_consents_to_analytics ?? false,
    enable_proactive_conversation_starters: settings?.enable_proactive_conversation_starters ?? false,
    git_user_name: settings?.git_user_name ?? '',
    git_user_email: settings?.git_user_email ?? '',
    max_budget_per_task: settings?.max_budget_per_task == null ? '' : String(settings.max_budget_per_task),
  };
}

export function applicationErrors(
  draft: ApplicationDraft,
): Partial<Record<keyof ApplicationDraft, ApplicationFieldError>> {
  const budget = draft.max_budget_per_task.trim();
  const dollars = Number(budget);
  const email = draft.git_user_email.trim();
  return {
    ...(budget !== '' &&
      (!Number.isFinite(dollars)
        ? { max_budget_per_task: 'budgetNotANumber' as const }
        : dollars <= 0 || dollars > MAX_BUDGET_DOLLARS
          ? { max_budget_per_task: 'budgetOutOfRange' as const }
          : {})),
    ...(email !== '' && !EMAIL.test(email) && { git_user_email: 'gitEmailInvalid' as const }),
  };
}

/** The fields that differ from the saved form, as the API takes them; empty texts and budget become null. */
export function applicationChanges(before: ApplicationDraft, draft: ApplicationDraft): SettingsUpdate {
  const changes: SettingsUpdate = {};
  const text = (value: string) => value.trim() || null;
  if (draft.language !== before.language) changes.language = draft.language;
  if (draft.enable_sound_notifications !== before.enable_sound_notifications)
    changes.enable_sound_notifications = draft.enable_sound_notifications;
  if (draft.user_consents_to_analytics !== before.user_consents_to_analytics)
    changes.user_consents_to_analytics = draft.user_consents_to_analytics;
  if (draft.enable_proactive_conversation_starters !== before.enable_proactive_conversation_starters)
    changes.enable_proactive_conversation_starters = draft.enable_proactive_conversation_starters;
  if (text(draft.git_user_name) !== text(before.git_user_name)) changes.git_user_name = text(draft.git_user_name);
  if (text(draft.git_user_email) !== text(before.git_user_email)) changes.git_user_email = text(draft.git_user_email);
  const budget = text(draft.max_budget_per_task);
  if (budget !== text(before.max_budget_per_task))
    changes.max_budget_per_task = budget === null ? null : Number(budget);
  return changes;
}
