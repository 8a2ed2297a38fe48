import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import {
  modelSettingsPayload,
  providersOf,
  COMPATIBLE_PROVIDER,
  PROVIDER_NAMES,
  type ModelForm,
  type SettingsUpdate,
} from '../../../machines/model-settings.ts';
import {
  selectCanSave,
  selectIsConfirmingEndSession,
  selectIsLoading,
  selectIsSaving,
  selectLoadFailed,
  settingsFormMachine,
} from '../../../machines/settings-form.ts';
import { queryKeys, settingsQuery } from '../../api/queries.ts';
import { requests } from '../../app/services.ts';
import { Button, ConfirmDialog, SelectField, Spinner, TextField } from '../../ui/index.ts';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { ErrorAlert } from './ConfirmActionDialog.tsx';
import { optionRequests, settingsQueryKeys } from './requests.ts';
import * as styles from './settings.css.ts';

/** The options a select offers: the list, with the current value kept when the list lacks it. */
const choices = (values: readonly string[], current: string) =>
  (current && !values.includes(current) ? [current, ...values] : values).map((value) => ({ value, label: value }));

/**
 * The model settings (the oss settings tab, and the AI settings modal): provider and model, key,
 * basic/advanced, the agent's options, Save and Test connection. Behaviour: machines/settings-form.ts.
 */
export function ModelSettingsForm(props: {
  knownModels: readonly string[];
  /** Inside a running conversation: saving asks to end its session first, then `endSession` runs. */
  endSession?: () => Promise<void>;
  onSaved?: () => void;
}) {
  const { t } = useTranslation('settings');
  const queryClient = useQueryClient();
  const form = useActorRef(
    settingsFormMachine.provide({
      actors: {
        // Through the query cache, without the actor's abort signal: React's development double
        // mount stops the first actor, and its aborted load must not become a load failure.
        loadSettings: fromPromise(() => queryClient.fetchQuery(settingsQuery(requests))),
        saveSettings: fromPromise<void, SettingsUpdate>(async ({ input }) => {
          await props.endSession?.();
          await requests.saveSettings(input);
          await queryClient.invalidateQueries({ queryKey: queryKeys.settings });
          props.onSaved?.();
        }),
      },
    }),
    {
      input: { knownModels: props.knownModels, inConversation: props.endSession !== undefined },
    },
  );
  const loading = useSelector(form, selectIsLoading);
  const failed = useSelector(form, selectLoadFailed);
  const saving = useSelector(form, selectIsSaving);
  const canSave = useSelector(form, selectCanSave);
  const confirming = useSelector(form, selectIsConfirmingEndSession);
  const { form: values, advanced, keySet, errors, saveError } = useSelector(form, (snapshot) => snapshot.context);
  const agents = useQuery({
    queryKey: settingsQueryKeys.options('agents'),
    queryFn: ({ signal }) => optionRequests.agents(signal),
  });
  const analyzers = useQuery({
    queryKey: settingsQueryKeys.options('security-analyzers'),
    queryFn: ({ signal }) => optionRequests.securityAnalyzers(signal),
  });
  const test = useMutation({
    mutationFn: () => {
      const payload = modelSettingsPayload(values, advanced);
      return optionRequests.testConnection({
        llm_model: payload.llm_model ?? '',
        llm_base_url: payload.llm_base_url ?? null,
        llm_api_key: values.apiKey.trim() || null,
      });
    },
    meta: { disableToast: true },
  });

  if (loading) return <Spinner label={t('loading')} />;
  if (failed) return <p className={styles.error}>{t('loadFailed')}</p>;

  const providers = providersOf(props.knownModels);
  const change = <K extends keyof ModelForm>(field: K, value: ModelForm[K]) => {
    test.reset();
    form.send({ type: 'CHANGE', field, value });
  };
  const error = (field: keyof ModelForm) => (errors[field] ? t(`llm.errors.${errors[field]}`) : undefined);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'SAVE' });
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-labelledby="llm-heading">
      <h2 id="llm-heading" className={styles.sectionHeading}>
        {t('llm.heading')}
      </h2>
      <Checkbox
        label={t('llm.advanced')}
        checked={advanced}
        onCheckedChange={(checked) => form.send({ type: 'SET_ADVANCED', advanced: checked })}
      />
      {advanced ? (
        <>
          <TextField
            label={t('llm.customModel')}
            value={values.customModel}
            onChange={(event) => change('customModel', event.target.value)}
            error={error('customModel')}
            placeholder="openai/gpt-4o"
            spellCheck={false}
          />
          <p className={styles.muted}>{t('llm.customModelHint')}</p>
          <TextField
            label={t('llm.baseUrl')}
            value={values.baseUrl}
            onChange={(event) => change('baseUrl', event.target.value)}
            placeholder="http://localhost:11434/v1"
            spellCheck={false}
          />
        </>
      ) : (
        <>
          <SelectField
            label={t('llm.provider')}
            value={values.provider}
            onChange={(event) => change('provider', event.target.value)}
            options={[
              ...choices([...providers.keys()], values.provider)
                .filter(({ value }) => value !== COMPATIBLE_PROVIDER)
                .map(({ value }) => ({ value, label: PROVIDER_NAMES[value] ?? value })),
              { value: COMPATIBLE_PROVIDER, label: t('llm.compatible') },
            ]}
          />
          {values.provider === COMPATIBLE_PROVIDER ? (
            <>
              <p className={styles.muted}>{t('llm.compatibleHint')}</p>
              <TextField
                label={t('llm.compatibleModel')}
                value={values.model}
                onChange={(event) => change('model', event.target.value)}
                error={error('model')}
                placeholder="llama3.1"
                spellCheck={false}
              />
              <TextField
                label={t('llm.baseUrl')}
                value={values.baseUrl}
                onChange={(event) => change('baseUrl', event.target.value)}
                error={error('baseUrl')}
                placeholder="http://localhost:11434/v1"
                spellCheck={false}
              />
            </>
          ) : (
            <SelectField
              label={t('llm.model')}
              value={values.model}
              onChange={(event) => change('model', event.target.value)}
              options={choices(providers.get(values.provider) ?? [], values.model)}
            />
          )}
        </>
      )}
      <TextField
        label={t('llm.apiKey')}
        type="password"
        value={values.apiKey}
        onChange={(event) => change('apiKey', event.target.value)}
        placeholder={keySet && !values.clearApiKey ? t('llm.keySaved') : undefined}
        autoComplete="off"
      />
      {keySet && !values.clearApiKey ? (
        <div className={styles.actions}>
          <Button size="sm" tone="ghost" onClick={() => form.send({ type: 'CLEAR_KEY' })}>
            {t('llm.removeKey')}
          </Button>
        </div>
      ) : null}
      {values.clearApiKey ? <p className={styles.muted}>{t('llm.keyWillBeRemoved')}</p> : null}
      {advanced ? (
        <>
          <SelectField
            label={t('llm.agent')}
            value={values.agent}
            onChange={(event) => change('agent', event.target.value)}
            options={choices(agents.data ?? [], values.agent)}
          />
          <TextField
            label={t('llm.searchApiKey')}
            type="password"
            value={values.searchApiKey}
            onChange={(event) => change('searchApiKey', event.target.value)}
            autoComplete="off"
          />
          <Checkbox
            label={t('llm.confirmationMode')}
            checked={values.confirmationMode}
            onCheckedChange={(checked) => change('confirmationMode', checked)}
          />
          {values.confirmationMode ? (
            <SelectField
              label={t('llm.securityAnalyzer')}
              value={values.securityAnalyzer}
              onChange={(event) => change('securityAnalyzer', event.target.value)}
              options={[
                { value: '', label: t('llm.noAnalyzer') },
                ...choices(analyzers.data ?? [], values.securityAnalyzer).filter((option) => option.value !== ''),
              ]}
            />
          ) : null}
          <Checkbox
            label={t('llm.condenser')}
            checked={values.enableDefaultCondenser}
            onCheckedChange={(checked) => change('enableDefaultCondenser', checked)}
          />
        </>
      ) : null}
      <ErrorAlert error={saveError} />
      <div className={styles.actions}>
        <Button type="submit" disabled={!canSave}>
          {saving ? t('saving') : t('save')}
        </Button>
        <Button tone="secondary" disabled={test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? t('llm.testing') : t('llm.test')}
        </Button>
      </div>
      <div role="status" className={styles.testResult}>
        {test.data?.ok ? t('llm.testAnswered', { answer: test.data.answer }) : null}
        {test.data && !test.data.ok ? t('llm.testFailed', { error: test.data.error }) : null}
      </div>
      <ErrorAlert error={test.error} />
      {confirming ? (
        <ConfirmDialog
          title={t('llm.endSessionTitle')}
          description={t('llm.endSessionDescription')}
          confirmLabel={t('llm.endSessionConfirm')}
          cancelLabel={t('cancel')}
          closeLabel={t('close')}
          onConfirm={() => form.send({ type: 'CONFIRM' })}
          onCancel={() => form.send({ type: 'CANCEL' })}
        />
      ) : null}
    </form>
  );
}
