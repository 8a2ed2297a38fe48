import i18next from 'i18next';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../api/client.ts';
import { useSettings } from '../../app/hooks.ts';
import { SUPPORTED_LANGUAGES } from '../../../locales/languages.ts';
import { Button, SelectField, Spinner, TextField } from '../../ui/index.ts';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { applicationChanges, applicationDraft, applicationErrors, type ApplicationDraft } from './application-form.ts';
import { ErrorAlert } from './ConfirmActionDialog.tsx';
import { useSaveSettings } from './requests.ts';
import * as styles from './settings.css.ts';

/** Language, notifications, analytics consent, conversation starters, git identity and budget. */
export function ApplicationTab() {
  const { t } = useTranslation('settings');
  const settings = useSettings();
  if (settings.isPending) return <Spinner label={t('loading')} />;
  if (settings.isError) return <p className={styles.error}>{t('loadFailed')}</p>;
  return <ApplicationForm settings={settings.data} />;
}

function ApplicationForm({ settings }: { settings: Settings | null }) {
  const { t } = useTranslation('settings');
  const [saved, setSaved] = useState(() => applicationDraft(settings, i18next.resolvedLanguage ?? 'en'));
  const [draft, setDraft] = useState(saved);
  const errors = applicationErrors(draft);
  const changes = applicationChanges(saved, draft);
  const save = useSaveSettings(async (update) => {
    setSaved(draft);
    if (update.language) await i18next.changeLanguage(update.language);
  });
  const dirty = Object.keys(changes).length > 0;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (dirty && Object.keys(errors).length === 0 && !save.isPending) save.mutate(changes);
  };
  const set = <K extends keyof ApplicationDraft>(field: K, value: ApplicationDraft[K]) => {
    save.reset();
    setDraft({ ...draft, [field]: value });
  };
  const error = (field: keyof ApplicationDraft) => {
    const key = errors[field];
    return key ? t(`app.errors.${key}`) : undefined;
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-labelledby="app-heading">
      <h2 id="app-heading" className={styles.sectionHeading}>
        {t('app.heading')}
      </h2>
      <SelectField
        label={t('app.language')}
        value={draft.language}
        onChange={(event) => set('language', event.target.value)}
        options={SUPPORTED_LANGUAGES.map((language) => ({ value: language, label: t(`languages.${language}`) }))}
      />
      <Checkbox
        label={t('app.soundNotifications')}
        checked={draft.enable_sound_notifications}
        onCheckedChange={(checked) => set('enable_sound_notifications', checked)}
      />
      <Checkbox
        label={t('app.analytics')}
        checked={draft.user_consents_to_analytics}
        onCheckedChange={(checked) => set('user_consents_to_analytics', checked)}
      />
      <Checkbox
        label={t('app.proactiveStarters')}
        checked={draft.enable_proactive_conversation_starters}
        onCheckedChange={(checked) => set('enable_proactive_conversation_starters', checked)}
      />
      <TextField
        label={t('app.gitUserName')}
        value={draft.git_user_name}
        onChange={(event) => set('git_user_name', event.target.value)}
        autoComplete="name"
      />
      <TextField
        label={t('app.gitUserEmail')}
        type="email"
        value={draft.git_user_email}
        onChange={(event) => set('git_user_email', event.target.value)}
        error={error('git_user_email')}
        autoComplete="email"
      />
      <TextField
        label={t('app.maxBudget')}
        inputMode="decimal"
        value={draft.max_budget_per_task}
        onChange={(event) => set('max_budget_per_task', event.target.value)}
        error={error('max_budget_per_task')}
        placeholder={t('app.noBudget')}
      />
      <ErrorAlert error={save.error} />
      <div className={styles.actions}>
        <Button type="submit" disabled={!dirty || save.isPending || Object.keys(errors).length > 0}>
          {save.isPending ? t('saving') : t('save')}
        </Button>
        {save.isSuccess ? (
          <span role="status" className={styles.muted}>
            {t('saved')}
          </span>
        ) : null}
      </div>
    </form>
  );
}
