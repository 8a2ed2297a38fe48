import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  selectCanLaunch,
  selectForm,
  selectLaunching,
  selectLoadingPrompt,
  selectOpen,
} from '../../../machines/microagent-launch.ts';
import { Button, Dialog, Spinner, TextField } from '../../ui/index.ts';
import * as field from '../../ui/field.css.ts';
import * as styles from './chat.css.ts';
import type { MicroagentLaunchActor } from './microagent-launch.ts';

/** The launch-microagent modal (spec §2, §5): what to remember, where, and the trigger words. */
export function LaunchMicroagentDialog({ launch }: { launch: MicroagentLaunchActor }) {
  const { t } = useTranslation('microagents');
  const open = useSelector(launch, selectOpen);
  const form = useSelector(launch, selectForm);
  const loadingPrompt = useSelector(launch, selectLoadingPrompt);
  const launching = useSelector(launch, selectLaunching);
  const canLaunch = useSelector(launch, selectCanLaunch);
  const queryId = useId();
  const source = form.source;
  if (!source) return null;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) launch.send({ type: 'CANCEL' });
      }}
      title={t('launch.title')}
      description={t('launch.description', { repository: source.repository, branch: source.branch })}
      closeLabel={t('launch.close')}
      closeOnOutsideClick={false}
    >
      <form
        className={styles.launchForm}
        onSubmit={(event) => {
          event.preventDefault();
          launch.send({ type: 'LAUNCH' });
        }}
      >
        {loadingPrompt ? <Spinner label={t('launch.loadingPrompt')} /> : null}
        <div className={field.field}>
          <label className={field.label} htmlFor={queryId}>
            {t('launch.query')}
          </label>
          <textarea
            id={queryId}
            className={styles.queryBox}
            value={form.query}
            required
            disabled={launching}
            onChange={(event) => launch.send({ type: 'QUERY_CHANGED', value: event.target.value })}
          />
        </div>
        <TextField
          label={t('launch.target')}
          hint={t('launch.targetHint')}
          value={form.target}
          required
          disabled={launching}
          onChange={(event) => launch.send({ type: 'TARGET_CHANGED', value: event.target.value })}
        />
        <TextField
          label={t('launch.triggers')}
          hint={t('launch.triggersHint')}
          value={form.triggerDraft}
          disabled={launching}
          onChange={(event) => launch.send({ type: 'TRIGGER_INPUT', value: event.target.value })}
          onKeyDown={(event) => {
            if (event.key === 'Backspace' && event.currentTarget.value === '')
              launch.send({ type: 'TRIGGER_BACKSPACE' });
          }}
        />
        {form.triggers.length > 0 ? (
          <ul className={styles.triggerList} aria-label={t('launch.triggers')}>
            {form.triggers.map((trigger) => (
              <li key={trigger} className={styles.trigger}>
                {trigger}
              </li>
            ))}
          </ul>
        ) : null}
        {!canLaunch && !launching ? <p className={field.hint}>{t('launch.required')}</p> : null}
        <div className={styles.rowActions}>
          <Button type="submit" disabled={!canLaunch}>
            {launching ? t('launch.launching') : t('launch.launch')}
          </Button>
          <Button type="button" tone="secondary" disabled={launching} onClick={() => launch.send({ type: 'CANCEL' })}>
            {t('launch.cancel')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
