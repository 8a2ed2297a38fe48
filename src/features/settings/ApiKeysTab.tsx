import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { Button, Dialog, Spinner, TextField } from '../../ui/index.ts';
import { ConfirmActionDialog, ErrorAlert } from './ConfirmActionDialog.tsx';
import { apiKeyRequests, settingsQueryKeys, type ApiKey, type CreatedApiKey } from './requests.ts';
import * as styles from './settings.css.ts';

/** API keys: created (the key shown once), listed by name and prefix, revoked. */
export function ApiKeysTab() {
  const { t, i18n } = useTranslation('settings');
  const keys = useQuery({ queryKey: settingsQueryKeys.apiKeys, queryFn: ({ signal }) => apiKeyRequests.list(signal) });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
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
        <Button onClick={() => setCreating(true)}>{t('apiKeys.create')}</Button>
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
                    onClick={() => setRevoking(key)}
                  >
                    {t('apiKeys.revoke')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {creating ? <CreateKeyDialog onClose={() => setCreating(false)} /> : null}
      {revoking ? (
        <ConfirmActionDialog
          title={t('apiKeys.revokeTitle', { name: revoking.name })}
          description={t('apiKeys.revokeDescription')}
          confirmLabel={t('apiKeys.revoke')}
          action={() => apiKeyRequests.revoke(revoking.id)}
          refresh={settingsQueryKeys.apiKeys}
          onClose={() => setRevoking(null)}
        />
      ) : null}
    </section>
  );
}

function CreateKeyDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('settings');
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const create = useMutation({
    mutationFn: () => apiKeyRequests.create(name.trim()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsQueryKeys.apiKeys }),
    meta: { disableToast: true },
  });
  const created: CreatedApiKey | undefined = create.data;
  const nameError = submitted && name.trim() === '' ? t('apiKeys.nameRequired') : undefined;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (name.trim() !== '' && !create.isPending) create.mutate();
  };
  // The clipboard may be refused (permissions, an insecure origin): the key can still be selected.
  const copy = (key: string) =>
    navigator.clipboard.writeText(key).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={created ? t('apiKeys.createdTitle') : t('apiKeys.create')}
      description={created ? t('apiKeys.createdDescription') : t('apiKeys.createDescription')}
      closeLabel={t('close')}
    >
      {created ? (
        <div className={styles.form}>
          <TextField
            label={t('apiKeys.key')}
            value={created.key}
            readOnly
            onFocus={(event) => event.target.select()}
            error={copied === 'failed' ? t('apiKeys.copyFailed') : undefined}
          />
          <div className={styles.dialogButtons}>
            <Button tone="secondary" onClick={() => void copy(created.key)}>
              {copied === 'yes' ? t('apiKeys.copied') : t('apiKeys.copy')}
            </Button>
            <Button onClick={onClose}>{t('apiKeys.done')}</Button>
          </div>
        </div>
      ) : (
        <form className={styles.form} onSubmit={onSubmit} noValidate>
          <TextField
            label={t('apiKeys.name')}
            value={name}
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
            error={nameError}
            autoComplete="off"
          />
          <ErrorAlert error={create.error} />
          <div className={styles.dialogButtons}>
            <Button tone="secondary" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {t('apiKeys.create')}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
