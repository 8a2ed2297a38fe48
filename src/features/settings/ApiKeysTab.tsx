import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import {
  apiKeysMachine,
  selectBusy,
  selectCopy,
  selectCreatedKey,
  selectDialog,
  selectFailure,
  selectName,
  selectNameMissing,
  selectRevoking,
} from '../../../machines/api-keys.ts';
import { errorText } from '../../api/errors.ts';
import { Button, Dialog, Spinner, TextField } from '../../ui/index.ts';
import { ConfirmActionDialog, ErrorAlert } from './ConfirmActionDialog.tsx';
import { apiKeyRequests, settingsQueryKeys } from './requests.ts';
import * as styles from './settings.css.ts';

type ApiKeysActor = ReturnType<typeof useApiKeysActor>;

function useApiKeysActor() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsQueryKeys.apiKeys });
  return useActorRef(
    apiKeysMachine.provide({
      actors: {
        createKey: fromPromise(async ({ input }) => {
          const created = await apiKeyRequests.create(input);
          void refresh();
          return created;
        }),
        revokeKey: fromPromise(async ({ input }) => {
          await apiKeyRequests.revoke(input);
          await refresh();
        }),
        writeClipboard: fromPromise(({ input }) => navigator.clipboard.writeText(input)),
      },
    }),
  );
}

/** API keys: created (the key shown once), listed by name and prefix, revoked. */
export function ApiKeysTab() {
  const { t, i18n } = useTranslation('settings');
  const keys = useQuery({ queryKey: settingsQueryKeys.apiKeys, queryFn: ({ signal }) => apiKeyRequests.list(signal) });
  const actor = useApiKeysActor();
  const dialog = useSelector(actor, selectDialog);
  const revoking = useSelector(actor, selectRevoking);
  const busy = useSelector(actor, selectBusy);
  const failure = useSelector(actor, selectFailure);
  const close = () => actor.send({ type: 'CLOSE' });
  const date = (iso: string | null) =>
    iso
      ? new Date(iso).toLocaleString(i18n.resolvedLanguage, { dateStyle: 'medium', timeStyle: 'short' })
      : t('apiKeys.never');

  return (
    <section className={styles.section} aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading" className={styles.sectionHeading}>
        {t('apiKeys.heading')}
      </h2>
      <p className={styles.muted}>{t('apiKeys.intro')}</p>
      <div className={styles.actions}>
        <Button onClick={() => actor.send({ type: 'CREATE' })}>{t('apiKeys.create')}</Button>
      </div>
      {keys.isPending ? <Spinner label={t('loading')} /> : null}
      {keys.isError ? <p className={styles.error}>{errorText(keys.error)}</p> : null}
      {keys.data?.length === 0 ? <p className={styles.muted}>{t('apiKeys.none')}</p> : null}
      {keys.data?.length ? (
        <table className={styles.table}>
          <thead>
            <tr>
              {(['name', 'prefix', 'created', 'lastUsed'] as const).map((column) => (
                <th key={column} className={styles.cell} scope="col">
                  {t(`apiKeys.${column}`)}
                </th>
              ))}
              <th className={styles.cell} scope="col">
                <span className={styles.muted}>{t('apiKeys.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id}>
                <td className={styles.cell}>{key.name}</td>
                <td className={`${styles.cell} ${styles.code}`}>{key.prefix}…</td>
                <td className={styles.cell}>{date(key.created_at)}</td>
                <td className={styles.cell}>{date(key.last_used_at)}</td>
                <td className={styles.cell}>
                  <Button
                    size="sm"
                    tone="ghost"
                    aria-label={t('apiKeys.revokeOne', { name: key.name })}
                    onClick={() => actor.send({ type: 'REVOKE', key })}
                  >
                    {t('apiKeys.revoke')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {dialog === 'create' ? <CreateKeyDialog actor={actor} /> : null}
      {dialog === 'created' ? <CreatedKeyDialog actor={actor} /> : null}
      {dialog === 'revoke' && revoking ? (
        <ConfirmActionDialog
          title={t('apiKeys.revokeTitle', { name: revoking.name })}
          description={t('apiKeys.revokeDescription')}
          confirmLabel={t('apiKeys.revoke')}
          busy={busy}
          failure={failure}
          onConfirm={() => actor.send({ type: 'CONFIRM' })}
          onClose={close}
        />
      ) : null}
    </section>
  );
}

function CreateKeyDialog({ actor }: { actor: ApiKeysActor }) {
  const { t } = useTranslation('settings');
  const name = useSelector(actor, selectName);
  const nameMissing = useSelector(actor, selectNameMissing);
  const busy = useSelector(actor, selectBusy);
  const failure = useSelector(actor, selectFailure);
  const close = () => actor.send({ type: 'CLOSE' });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SUBMIT' });
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : close())}
      title={t('apiKeys.create')}
      description={t('apiKeys.createDescription')}
      closeLabel={t('close')}
    >
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <TextField
          label={t('apiKeys.name')}
          value={name}
          maxLength={100}
          onChange={(event) => actor.send({ type: 'NAME_CHANGED', name: event.target.value })}
          error={nameMissing ? t('apiKeys.nameRequired') : undefined}
          autoComplete="off"
        />
        <ErrorAlert error={failure} />
        <div className={styles.dialogButtons}>
          <Button tone="secondary" onClick={close}>
            {t('cancel')}
          </Button>
          <Button type="submit" disabled={busy}>
            {t('apiKeys.create')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function CreatedKeyDialog({ actor }: { actor: ApiKeysActor }) {
  const { t } = useTranslation('settings');
  const key = useSelector(actor, selectCreatedKey) ?? '';
  const copy = useSelector(actor, selectCopy);
  const close = () => actor.send({ type: 'CLOSE' });
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : close())}
      title={t('apiKeys.createdTitle')}
      description={t('apiKeys.createdDescription')}
      closeLabel={t('close')}
    >
      <div className={styles.form}>
        <TextField
          label={t('apiKeys.key')}
          value={key}
          readOnly
          onFocus={(event) => event.target.select()}
          error={copy === 'refused' ? t('apiKeys.copyFailed') : undefined}
        />
        <div className={styles.dialogButtons}>
          <Button tone="secondary" onClick={() => actor.send({ type: 'COPY' })}>
            {copy === 'copied' ? t('apiKeys.copied') : t('apiKeys.copy')}
          </Button>
          <Button onClick={close}>{t('apiKeys.done')}</Button>
        </div>
      </div>
    </Dialog>
  );
}
