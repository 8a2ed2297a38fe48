import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { selectLoggingIn, selectLoginFailed, selectLoginOpen } from '../../../machines/affiliate-session.ts';
import { Button, Dialog, TextField } from '../../ui/index.ts';
import { Checkbox } from '../../ui/Checkbox.tsx';
import * as styles from './affiliate.css.ts';
import { useAffiliateSelector, useAffiliateSession } from './session.tsx';

/** The affiliate login dialog of /affiliate (spec §2, §4, §8). */
export function LoginDialog() {
  const { t } = useTranslation('affiliate');
  const session = useAffiliateSession();
  const open = useAffiliateSelector(selectLoginOpen);
  const loggingIn = useAffiliateSelector(selectLoggingIn);
  const failed = useAffiliateSelector(selectLoginFailed);
  const [rememberMe, setRememberMe] = useState(true);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const credentials = { email: String(data.get('email') ?? '').trim(), password: String(data.get('password') ?? '') };
    session.send({ type: 'LOG_IN', credentials: { ...credentials, rememberMe } });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && session.send({ type: 'CLOSE_LOGIN' })}
      title={t('login.title')}
      description={t('login.description')}
      closeLabel={t('create.close')}
    >
      <form className={styles.form} onSubmit={submit}>
        <TextField
          name="email"
          type="email"
          label={t('login.email')}
          autoComplete="email"
          required
          disabled={loggingIn}
        />
        <TextField
          name="password"
          type="password"
          label={t('login.password')}
          autoComplete="current-password"
          required
          disabled={loggingIn}
        />
        <Checkbox
          label={t('login.rememberMe')}
          checked={rememberMe}
          onCheckedChange={setRememberMe}
          disabled={loggingIn}
        />
        {failed ? (
          <p role="alert" className={styles.notice}>
            {t('login.failed')}
          </p>
        ) : null}
        <Button type="submit" disabled={loggingIn}>
          {loggingIn ? t('login.submitting') : t('login.submit')}
        </Button>
      </form>
    </Dialog>
  );
}
