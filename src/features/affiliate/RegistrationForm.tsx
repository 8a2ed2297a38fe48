import { useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import i18next from 'i18next';
import { type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import {
  affiliateRegistrationMachine,
  selectFailure,
  selectRegistering,
  selectWhatsappInvalid,
  type AffiliateRegistrationValues,
} from '../../../machines/affiliate-registration.ts';
import { storedAffiliateCode } from '../../app/local-data.ts';
import { Button, Dialog, TextField, toast } from '../../ui/index.ts';
import * as styles from './affiliate.css.ts';
import { affiliateLogin } from './requests.ts';
import { PhoneField } from './PhoneField.tsx';
import { useAffiliateRequests, useAffiliateSession } from './session.tsx';

const FIELDS = ['full_name', 'email', 'password', 'whatsapp', 'telegram', 'website', 'youtube'] as const;

function formValues(form: HTMLFormElement): AffiliateRegistrationValues {
  const data = new FormData(form);
  const value = (name: string) => String(data.get(name) ?? '');
  return Object.fromEntries(FIELDS.map((name) => [name, value(name)])) as unknown as AffiliateRegistrationValues;
}

/** The registration form of /affiliate and its 'Action Failed' dialog (spec §2, §4, §5, §8). */
export function RegistrationForm() {
  const { t } = useTranslation('affiliate');
  const requests = useAffiliateRequests();
  const session = useAffiliateSession();
  const navigate = useNavigate();
  // The referrer's code from a referral link makes this affiliate a second-level one.
  const registration = useActorRef(
    affiliateRegistrationMachine.provide({
      actors: {
        register: fromPromise(({ input }) => requests.register(input)),
        logIn: fromPromise(async ({ input }) => {
          const answer = await requests.logIn({ ...input, remember_me: true });
          return { token: answer.access_token, affiliateId: answer.affiliate_id, rememberMe: true };
        }),
      },
      actions: {
        storeAffiliateId: (_, id) => affiliateLogin.keepAffiliateId(id),
        signIn: (_, login) => session.send({ type: 'SIGNED_IN', login }),
        goToDashboard: () => void navigate({ to: '/affiliate/dashboard' }),
        askToLogIn: () => {
          toast.success(i18next.t('affiliate:login.afterRegistration'));
          session.send({ type: 'OPEN_LOGIN' });
        },
      },
    }),
    { input: { affiliateCode: storedAffiliateCode() } },
  );
  const registering = useSelector(registration, selectRegistering);
  const whatsappInvalid = useSelector(registration, selectWhatsappInvalid);
  const failure = useSelector(registration, selectFailure);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    registration.send({ type: 'SUBMIT', values: formValues(event.currentTarget) });
  };

  return (
    <form className={styles.form} onSubmit={submit} aria-labelledby="register-heading">
      <TextField name="full_name" label={t('form.fullName')} autoComplete="name" required disabled={registering} />
      <TextField
        name="email"
        type="email"
        label={t('form.email')}
        autoComplete="email"
        required
        disabled={registering}
      />
      <TextField
        name="password"
        type="password"
        label={t('form.password')}
        autoComplete="new-password"
        minLength={8}
        required
        disabled={registering}
      />
      <PhoneField
        name="whatsapp"
        label={t('form.whatsapp')}
        error={whatsappInvalid ? t('form.phoneInvalid') : undefined}
        disabled={registering}
      />
      <TextField
        name="telegram"
        label={t('form.telegram')}
        placeholder={t('form.telegramPlaceholder')}
        disabled={registering}
      />
      <TextField name="website" type="url" label={t('form.website')} placeholder="https://" disabled={registering} />
      <TextField name="youtube" type="url" label={t('form.youtube')} placeholder="https://" disabled={registering} />
      <Button type="submit" disabled={registering}>
        {registering ? t('form.submitting') : t('form.submit')}
      </Button>
      <Dialog
        open={failure !== null}
        onOpenChange={(open) => !open && registration.send({ type: 'ACKNOWLEDGE' })}
        title={t('failure.title')}
        description={failure?.text ?? t('failure.fallback')}
        closeLabel={t('create.close')}
      >
        <p>{t('failure.advice')}</p>
        <div className={styles.buttons}>
          <Button onClick={() => registration.send({ type: 'ACKNOWLEDGE' })}>{t('failure.ok')}</Button>
        </div>
      </Dialog>
    </form>
  );
}
