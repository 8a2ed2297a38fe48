import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { selectIsSigningIn, selectLoginFailure } from '../../../machines/session.ts';
import { useSignInForm } from '../../app/auth-forms.ts';
import { useClientConfig } from '../../app/hooks.ts';
import { SessionContext } from '../../app/session.ts';
import { Button, ProviderIcon, TextField } from '../../ui/index.ts';
import { Checkbox } from '../../ui/Checkbox.tsx';
import * as styles from './auth.css.ts';
import { useNoticeText } from './notice-text.ts';

export function SignInForm() {
  const { t } = useTranslation(['auth', 'common']);
  const noticeText = useNoticeText();
  const session = SessionContext.useActorRef();
  const form = useSignInForm();
  const { email, password, rememberMe, errors } = useSelector(form, (snapshot) => snapshot.context);
  const signingIn = SessionContext.useSelector(selectIsSigningIn);
  const failure = SessionContext.useSelector(selectLoginFailure);
  const providers = useClientConfig()?.SIGN_IN_PROVIDERS ?? [];

  return (
    <form
      className={styles.form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        form.send({ type: 'SUBMIT' });
      }}
    >
      <TextField
        label={t('signIn.email')}
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        error={errors.email && t(`validation.${errors.email}`)}
        onChange={(event) => form.send({ type: 'FIELD_CHANGED', field: 'email', value: event.target.value })}
      />
      <TextField
        label={t('signIn.password')}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        error={errors.password && t(`validation.${errors.password}`)}
        onChange={(event) => form.send({ type: 'FIELD_CHANGED', field: 'password', value: event.target.value })}
      />
      <Checkbox
        label={t('signIn.rememberMe')}
        checked={rememberMe}
        onCheckedChange={(checked) => form.send({ type: 'REMEMBER_ME_CHANGED', rememberMe: checked })}
      />
      {failure ? (
        <p className={styles.failure} role="alert">
          {noticeText(failure)}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button type="submit" wide disabled={signingIn}>
          {signingIn ? t('signIn.submitting') : t('signIn.submit')}
        </Button>
        <Button tone="secondary" wide onClick={() => session.send({ type: 'CLOSE_DIALOG' })}>
          {t('signIn.cancel')}
        </Button>
      </div>
      {providers.length > 0 ? (
        <div className={styles.actions}>
          <p className={styles.divider}>{t('external.or')}</p>
          {providers.map((provider) => {
            const name = t(`common:gitProviders.${provider.identity}`);
            return (
              <Button
                key={provider.identity}
                tone="secondary"
                wide
                onClick={() => session.send({ type: 'SIGN_IN_WITH', provider })}
              >
                <ProviderIcon provider={provider.identity} />
                {t('external.continueWith', { provider: name })}
              </Button>
            );
          })}
        </div>
      ) : null}
      <p className={styles.switchMode}>
        {t('signIn.noAccount')}
        <Button tone="link" size="sm" onClick={() => session.send({ type: 'OPEN_SIGN_UP' })}>
          {t('signIn.toSignUp')}
        </Button>
      </p>
    </form>
  );
}
