import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import type { SecretDraft } from '../../../machines/secret-form.ts';
import {
  secretsMachine,
  selectBusy,
  selectDeleting,
  selectDialog,
  selectDraft,
  selectFailure,
  selectFieldErrors,
  selectSecret,
} from '../../../machines/secrets.ts';
import { errorText } from '../../api/errors.ts';
import { Button, Dialog, Spinner, TextField } from '../../ui/index.ts';
import { ConfirmActionDialog, ErrorAlert } from './ConfirmActionDialog.tsx';
import { secretRequests, settingsQueryKeys } from './requests.ts';
import * as styles from './settings.css.ts';

type SecretsActor = ReturnType<typeof useSecretsActor>;

function useSecretsActor() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsQueryKeys.secrets });
  return useActorRef(
    secretsMachine.provide({
      actors: {
        saveSecret: fromPromise(async ({ input }) => {
          if ('create' in input) await secretRequests.create(input.create);
          else if (input.update) await secretRequests.update(input.name, input.update);
          await refresh();
        }),
        deleteSecret: fromPromise(async ({ input }) => {
          await secretRequests.remove(input);
          await refresh();
        }),
      },
    }),
  );
}

/** Custom secrets: names and descriptions listed, values written but never shown again. */
export function SecretsTab() {
  const { t } = useTranslation('settings');
  const secrets = useQuery({
    queryKey: settingsQueryKeys.secrets,
    queryFn: ({ signal }) => secretRequests.list(signal),
  });
  const actor = useSecretsActor();
  const dialog = useSelector(actor, selectDialog);
  const deleting = useSelector(actor, selectDeleting);
  const busy = useSelector(actor, selectBusy);
  const failure = useSelector(actor, selectFailure);

  return (
    <section className={styles.section} aria-labelledby="secrets-heading">
      <h2 id="secrets-heading" className={styles.sectionHeading}>
        {t('secrets.heading')}
      </h2>
      <p className={styles.muted}>{t('secrets.intro')}</p>
      <div className={styles.actions}>
        <Button onClick={() => actor.send({ type: 'ADD' })}>{t('secrets.add')}</Button>
      </div>
      {secrets.isPending ? <Spinner label={t('loading')} /> : null}
      {secrets.isError ? <p className={styles.error}>{errorText(secrets.error)}</p> : null}
      {secrets.data?.length === 0 ? <p className={styles.muted}>{t('secrets.none')}</p> : null}
      {secrets.data?.length ? (
        <table className={styles.table}>
          <thead>
            <tr>
              <th className={styles.cell} scope="col">
                {t('secrets.name')}
              </th>
              <th className={styles.cell} scope="col">
                {t('secrets.description')}
              </th>
              <th className={styles.cell} scope="col">
                <span className={styles.muted}>{t('secrets.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {secrets.data.map((secret) => (
              <tr key={secret.name}>
                <td className={`${styles.cell} ${styles.code}`}>{secret.name}</td>
                <td className={styles.cell}>{secret.description}</td>
                <td className={styles.cell}>
                  <div className={styles.actions}>
                    <Button
                      size="sm"
                      tone="secondary"
                      aria-label={t('secrets.editOne', { name: secret.name })}
                      onClick={() => actor.send({ type: 'EDIT', secret })}
                    >
                      {t('secrets.edit')}
                    </Button>
                    <Button
                      size="sm"
                      tone="ghost"
                      aria-label={t('secrets.deleteOne', { name: secret.name })}
                      onClick={() => actor.send({ type: 'DELETE', secret })}
                    >
                      {t('secrets.delete')}
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {dialog === 'edit' ? <SecretDialog actor={actor} /> : null}
      {dialog === 'delete' && deleting ? (
        <ConfirmActionDialog
          title={t('secrets.deleteTitle', { name: deleting.name })}
          description={t('secrets.deleteDescription')}
          confirmLabel={t('secrets.delete')}
          busy={busy}
          failure={failure}
          onConfirm={() => actor.send({ type: 'CONFIRM' })}
          onClose={() => actor.send({ type: 'CLOSE' })}
        />
      ) : null}
    </section>
  );
}

function SecretDialog({ actor }: { actor: SecretsActor }) {
  const { t } = useTranslation('settings');
  const secret = useSelector(actor, selectSecret);
  const draft = useSelector(actor, selectDraft);
  const errors = useSelector(actor, selectFieldErrors);
  const busy = useSelector(actor, selectBusy);
  const failure = useSelector(actor, selectFailure);
  const close = () => actor.send({ type: 'CLOSE' });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SUBMIT' });
  };
  const shown = (field: keyof SecretDraft) => {
    const error = errors[field];
    return error ? t(`secrets.errors.${error}`) : undefined;
  };
  const change = (field: keyof SecretDraft) => (event: { target: { value: string } }) =>
    actor.send({ type: 'FIELD_CHANGED', field, value: event.target.value });

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : close())}
      title={secret ? t('secrets.editTitle', { name: secret.name }) : t('secrets.addTitle')}
      description={secret ? t('secrets.editDescription') : t('secrets.addDescription')}
      closeLabel={t('close')}
    >
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <TextField
          label={t('secrets.name')}
          value={draft.name}
          onChange={change('name')}
          error={shown('name')}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label={secret ? t('secrets.newValue') : t('secrets.value')}
          type="password"
          value={draft.value}
          onChange={change('value')}
          error={shown('value')}
          autoComplete="new-password"
          placeholder={secret ? t('secrets.keepValue') : undefined}
        />
        <TextField
          label={t('secrets.descriptionOptional')}
          value={draft.description}
          onChange={change('description')}
          error={shown('description')}
        />
        <ErrorAlert error={failure} />
        <div className={styles.dialogButtons}>
          <Button tone="secondary" onClick={close}>
            {t('cancel')}
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? t('saving') : t('save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
