import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { Button, TextField } from '../../ui/index.ts';
import * as styles from './profile.css.ts';
import { useUpdateProfile } from './requests.ts';

/**
 * The profile's edit form (spec §2). The spec's form saves nothing; this one saves the name. The
 * email is shown, not edited: a new address would need its own verification.
 */
export function ProfileForm({ fullname, email }: { fullname: string; email: string }) {
  const { t } = useTranslation('auth');
  const [name, setName] = useState(fullname);
  const save = useUpdateProfile();
  const changed = name.trim() !== '' && name.trim() !== fullname;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed) save.mutate(name.trim());
  };
  return (
    <form className={styles.profileForm} onSubmit={submit} aria-label={t('profile.edit')}>
      <TextField
        label={t('profile.fullname')}
        value={name}
        maxLength={100}
        autoComplete="name"
        onChange={(event) => {
          setName(event.target.value);
          save.reset();
        }}
      />
      <TextField label={t('profile.email')} value={email} readOnly hint={t('profile.emailHint')} />
      <div className={styles.balanceRow}>
        <Button type="submit" disabled={!changed || save.isPending}>
          {save.isPending ? t('profile.saving') : t('profile.save')}
        </Button>
        <p className={styles.muted} role="status">
          {save.isSuccess ? t('profile.saved') : null}
          {save.isError ? errorText(save.error) : null}
        </p>
      </div>
    </form>
  );
}
