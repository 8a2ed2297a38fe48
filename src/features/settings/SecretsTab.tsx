import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { Button, Dialog, Spinner, TextField } from '../../ui/index.ts';
import { ConfirmActionDialog, ErrorAlert } from './ConfirmActionDialog.tsx';
import { secretRequests, settingsQueryKeys, type CustomSecret } from './requests.ts';
import { createSecretBody, secretDraftErrors, updateSecretBody, type SecretDraft } from './secret-form.ts';
import * as styles from './settings.css.ts';

/** Custom secrets: names and descriptions listed, values written but never shown again. */
export function SecretsTab() {
  const { t } = useTranslation('settings');
  const secrets = useQuery({
    queryKey: settingsQueryKeys.secrets,
    queryFn: ({ signal }) => secretRequests.list(signal),
  });
  // The secret being edited, 'new' while adding one, null when the form is closed.
  const [editing, setEditing] = useState<CustomSecret | 'new' | null>(null);
  const [deleting, setDeleting] = useState<CustomSecret | null>(null);

  return (
    <section className={styles.section} aria-labelledby="secrets-heading">
      <h2 id="secrets-heading" className={styles.sectionHeading}>
        {t('secrets.heading')}
      </h2>
      <p className={styles.muted}>{t('secrets.intro')}</p>
      <div className={styles.actions}>
        <Button onClick={() => setEditing('new')}>{t('secrets.add')}</Button>
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
                      onClick={() => setEditing(secret)}
                    >
                      {t('secrets.edit')}
                    </Button>
                    <Button
                      size="sm"
                      tone="ghost"
                      aria-label={t('secrets.deleteOne', { name: secret.name })}
                      onClick={() => setDeleting(secret)}
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
      {editing ? <SecretDialog secret={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      {deleting ? (
        <ConfirmActionDialog
          title={t('secrets.deleteTitle', { name: deleting.name })}
          description={t('secrets.deleteDescription')}
          confirmLabel={t('secrets.delete')}
          action={() => secretRequests.remove(deleting.name)}
          refresh={settingsQueryKeys.secrets}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </section>
  );
}

function SecretDialog({ secret, onClose }: { secret: CustomSecret | null; onClose: () => void }) {
  const { t } = useTranslation('settings');
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<SecretDraft>({
    name: secret?.name ?? '',
    value: '',
    description: secret?.description ?? '',
  });
  const [submitted, setSubmitted] = useState(false);
  const errors = secretDraftErrors(draft, secret !== null);
  const save = useMutation({
    mutationFn: async () => {
      if (!secret) return secretRequests.create(createSecretBody(draft));
      const body = updateSecretBody(secret, draft);
      return body ? secretRequests.update(secret.name, body) : null;
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: settingsQueryKeys.secrets });
      onClose();
    },
    meta: { disableToast: true },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length === 0 && !save.isPending) save.mutate();
  };
  const shown = (field: keyof SecretDraft) => {
    const error = submitted ? errors[field] : undefined;
    return error ? t(`secrets.errors.${error}`) : undefined;
  };
  const change = (field: keyof SecretDraft) => (event: { target: { value: string } }) =>
    setDraft({ ...draft, [field]: event.target.value });

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
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
        <ErrorAlert error={save.error} />
        <div className={styles.dialogButtons}>
          <Button tone="secondary" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? t('saving') : t('save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
