import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PASSWORD_MIN_LENGTH,
  selectIsBusy,
  selectIsConfirmingPersonalEmail,
  selectIsEditing,
  selectSignInFailed,
} from '../../../machines/registration.ts';
import { useRegistrationForm } from '../../app/auth-forms.ts';
import { SessionContext } from '../../app/session.ts';
import { Button, TextField } from '../../ui/index.ts';
import * as styles from './auth.css.ts';
import { useNoticeText } from './notice-text.ts';
import { PersonalEmailDialog } from './PersonalEmailDialog.tsx';

export function SignUpForm() {
  const { t } = useTranslation('auth');
  const noticeText = useNoticeText();
  const session = SessionContext.useActorRef();
  const registration = useRegistrationForm();
  const emailField = useRef<HTMLInputElement>(null);
  const { name, email, password, errors, failure } = useSelector(registration, (snapshot) => snapshot.context);
  const busy = useSelector(registration, selectIsBusy);
  const confirmingPersonalEmail = useSelector(registration, selectIsConfirmingPersonalEmail);
  const signInFailed = useSelector(registration, selectSignInFailed);
  const formHeld = !useSelector(registration, selectIsEditing);

  return (
    <form
      className={styles.form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        registration.send({ type: 'SUBMIT' });
      }}
    >
      <TextField
        label={t('signUp.name')}
        name="name"
        autoComplete="name"
        value={name}
        disabled={formHeld}
        error={errors.name && t(`validation.${errors.name}`)}
        onChange={(event) => registration.send({ type: 'FIELD_CHANGED', field: 'name', value: event.target.value })}
      />
      <TextField
        label={t('signUp.email')}
        type="email"
        name="email"
        autoComplete="email"
        ref={emailField}
        value={email}
        disabled={formHeld}
        error={errors.email && t(`validation.${errors.email}`)}
        onChange={(event) => registration.send({ type: 'FIELD_CHANGED', field: 'email', value: event.target.value })}
      />
      <TextField
        label={t('signUp.password')}
        type="password"
        name="password"
        autoComplete="new-password"
        value={password}
        disabled={formHeld}
        error={errors.password && t(`validation.${errors.password}`)}
        hint={t('signUp.passwordRule', { count: PASSWORD_MIN_LENGTH })}
        onChange={(event) => registration.send({ type: 'FIELD_CHANGED', field: 'password', value: event.target.value })}
      />
      {failure ? (
        <p className={styles.failure} role="alert">
          {noticeText(failure)}
        </p>
      ) : null}
      {signInFailed ? (
        <p className={styles.failure} role="alert">
          {t('errors.registeredButLoginFailed')}
        </p>
      ) : null}
      <Button type="submit" wide disabled={formHeld}>
        {busy ? t('signUp.submitting') : t('signUp.submit')}
      </Button>
      <p className={styles.note}>{t('signUp.securityNote')}</p>
      <p className={styles.switchMode}>
        {t('signUp.haveAccount')}
        <Button tone="link" size="sm" onClick={() => session.send({ type: 'OPEN_SIGN_IN' })}>
          {t('signUp.toSignIn')}
        </Button>
      </p>
      <PersonalEmailDialog
        open={confirmingPersonalEmail}
        onContinue={() => registration.send({ type: 'CONTINUE_WITH_PERSONAL_EMAIL' })}
        onUseCompanyEmail={() => registration.send({ type: 'USE_COMPANY_EMAIL' })}
        onCloseAutoFocus={(event) => {
          if (emailField.current?.value !== '') return;
          event.preventDefault();
          emailField.current.focus();
        }}
      />
    </form>
  );
}
