import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import {
  onboardingMachine,
  selectCanAgree,
  selectIsKeepingCardSetup,
  selectIsSaving,
  selectOpenDialog,
  selectStep,
  type FailedSave,
} from '../../../machines/onboarding.ts';
import { errorText } from '../../api/errors.ts';
import { refreshCurrentUser } from '../../api/queries.ts';
import { useClientConfig, useCurrentUser, useHeldForOnboarding } from '../../app/hooks.ts';
import { SessionContext } from '../../app/session.ts';
import { Avatar, Button, Dialog, SelectField, Spinner } from '../../ui/index.ts';
import { CardDialog } from './CardDialog.tsx';
import { ContactDialog } from './ContactDialog.tsx';
import * as styles from './onboarding.css.ts';
import { onboardingRequests } from './requests.ts';

/**
 * Where accounts that are not active yet complete onboarding (spec §2, §4); active users belong on
 * the dashboard, or back in the onboarding chat (`chatId`) that sent them here to finish.
 */
export function RegistrationOnboardingPage({
  chatId,
  setupSession,
  onSetupSessionUsed,
}: {
  chatId: string | null;
  /** The setup session Stripe's card page sent the browser back with. */
  setupSession: string | null;
  onSetupSessionUsed: () => void;
}) {
  const held = useHeldForOnboarding();
  const user = useCurrentUser();
  if (!held || !user)
    return chatId ? (
      <Navigate to="/onboarding" search={{ conversation: chatId }} replace />
    ) : (
      <Navigate to="/dashboard" replace />
    );
  return (
    <Onboarding
      name={user.fullname || user.email}
      email={user.email}
      personal={user.is_personal}
      chatId={chatId}
      setupSession={setupSession}
      onSetupSessionUsed={onSetupSessionUsed}
    />
  );
}

function Onboarding({
  name,
  email,
  personal,
  chatId,
  setupSession,
  onSetupSessionUsed,
}: {
  name: string;
  email: string;
  personal: boolean;
  chatId: string | null;
  setupSession: string | null;
  onSetupSessionUsed: () => void;
}) {
  const { t } = useTranslation('onboarding');
  const session = SessionContext.useActorRef();
  const queryClient = useQueryClient();
  const router = useRouter();
  const hostedCard = useClientConfig()?.HOSTED_PAYMENTS ?? false;
  const countries = useQuery({
    queryKey: ['user', 'onboarding', 'countries'],
    queryFn: ({ signal }) => onboardingRequests.countries(signal),
    staleTime: Infinity,
  });
  // The page remounts per visit (the route), so the first render's input is the visit's.
  const onboarding = useActorRef(
    onboardingMachine.provide({
      actors: {
        loadStart: fromPromise(() => onboardingRequests.start()),
        saveCountry: fromPromise(({ input }) => onboardingRequests.saveCountry(input)),
        saveContact: fromPromise(({ input }) => onboardingRequests.saveContact(input)),
        savePayment: fromPromise(({ input }) => onboardingRequests.savePayment(input)),
        startFree: fromPromise(() => onboardingRequests.startFree()),
        startCardSetup: fromPromise(() => onboardingRequests.cardSetupPage('onboarding', chatId ?? undefined)),
        saveCardSetup: fromPromise(({ input }) => onboardingRequests.saveCardSetup(input)),
      },
      actions: {
        openCardSetup: (_, url) => window.location.assign(url),
        leaveCardSetup: onSetupSessionUsed,
        showDashboard: () => {
          void refreshCurrentUser(queryClient).then(() =>
            chatId
              ? router.navigate({ to: '/onboarding', search: { conversation: chatId } })
              : router.navigate({ to: '/dashboard' }),
          );
        },
      },
    }),
    { input: { hostedCard, setupSession } },
  );
  const step = useSelector(onboarding, selectStep);
  const canAgree = useSelector(onboarding, selectCanAgree);
  const saving = useSelector(onboarding, selectIsSaving);
  const dialog = useSelector(onboarding, selectOpenDialog);
  const keepingCard = useSelector(onboarding, selectIsKeepingCardSetup);
  const { countryId, contact, failure, missingSteps } = useSelector(onboarding, (snapshot) => snapshot.context);
  const countryName = countries.data?.find((country) => country.id === countryId)?.name ?? null;
  const payment = contact?.payment_information ?? null;

  return (
    <div className={styles.layout}>
      <div className={styles.page}>
        <h1 className={styles.title}>{t('title')}</h1>
        {step === 'loading' ? <Spinner label={t('loading')} /> : null}
        {step === 'account' ? (
          <section className={styles.section} aria-labelledby="onboarding-step">
            <p className={styles.stepLabel}>{t('step', { step: 1 })}</p>
            <h2 id="onboarding-step" className={styles.sectionHeading}>
              {t('accountHeading')}
            </h2>
            <div className={styles.account}>
              <Avatar name={name} />
              <div className={styles.identity}>
                <span className={styles.name}>{name}</span>
                <span className={styles.email}>{email}</span>
              </div>
              <Button tone="link" size="sm" onClick={() => session.send({ type: 'OPEN_SIGN_IN' })}>
                {t('switchAccount')}
              </Button>
            </div>
            <SelectField
              label={t('country')}
              value={countryId === null ? '' : String(countryId)}
              onChange={(event) =>
                onboarding.send({
                  type: 'CHOOSE_COUNTRY',
                  countryId: event.target.value ? Number(event.target.value) : null,
                })
              }
              options={[
                { value: '', label: t('chooseCountry') },
                ...(countries.data ?? []).map((country) => ({ value: String(country.id), label: country.name })),
              ]}
            />
            <p className={styles.muted}>
              {t('terms')} <Link to="/terms">{t('termsLink')}</Link> · <Link to="/privacy">{t('privacyLink')}</Link>
            </p>
            <Button disabled={!canAgree} onClick={() => onboarding.send({ type: 'AGREE' })}>
              {saving ? t('saving') : t('agree')}
            </Button>
          </section>
        ) : null}
        {step === 'payment' ? (
          <section className={styles.section} aria-labelledby="onboarding-step">
            <p className={styles.stepLabel}>{t('step', { step: 2 })}</p>
            <h2 id="onboarding-step" className={styles.sectionHeading}>
              {t('paymentHeading')}
            </h2>
            <div className={styles.block}>
              <h3 className={styles.blockHeading}>{t('contactHeading')}</h3>
              {contact ? (
                <p className={styles.summary}>
                  {[contact.organization_name, contact.legal_name, contact.street_address, contact.apt_suite]
                    .filter(Boolean)
                    .join(', ')}
                  <br />
                  {[contact.postal_code, contact.city, contact.province, countryName].filter(Boolean).join(', ')}
                </p>
              ) : null}
              <Button tone="secondary" onClick={() => onboarding.send({ type: 'EDIT_CONTACT' })}>
                {contact ? t('change') : t('addContact')}
              </Button>
            </div>
            <div className={styles.block}>
              <h3 className={styles.blockHeading}>{t('paymentMethodHeading')}</h3>
              {payment ? (
                <p className={styles.summary}>
                  {t('cardSummary', {
                    brand: payment.card_brand,
                    last4: payment.card_last4,
                    expiry: payment.expiry_date,
                  })}
                </p>
              ) : null}
              {contact ? null : <p className={styles.muted}>{t('paymentNeedsContact')}</p>}
              {hostedCard ? <p className={styles.muted}>{t('hostedCard.note')}</p> : null}
              {keepingCard ? <Spinner label={t('hostedCard.keeping')} /> : null}
              <Button
                tone="secondary"
                disabled={!contact || saving}
                onClick={() => onboarding.send({ type: 'EDIT_PAYMENT' })}
              >
                {hostedCard
                  ? payment
                    ? t('hostedCard.change')
                    : t('hostedCard.add')
                  : payment
                    ? t('change')
                    : t('addPayment')}
              </Button>
            </div>
            <div className={styles.buttons}>
              <Button tone="secondary" onClick={() => onboarding.send({ type: 'BACK' })}>
                {t('back')}
              </Button>
              <Button disabled={saving} onClick={() => onboarding.send({ type: 'START_FREE' })}>
                {saving && dialog === null ? t('starting') : t('startFree')}
              </Button>
            </div>
          </section>
        ) : null}
      </div>
      <aside className={styles.side} aria-labelledby="onboarding-side">
        <h2 id="onboarding-side" className={styles.blockHeading}>
          {t('side.heading')}
        </h2>
        <ul>
          <li>{t('side.products')}</li>
          <li>{t('side.credit')}</li>
          <li>{t('side.noCharges')}</li>
        </ul>
      </aside>
      {dialog === 'contact' ? (
        <ContactDialog
          profileType={personal ? 'Individual' : 'Organization'}
          saved={contact}
          saving={saving}
          onSave={(input) => onboarding.send({ type: 'SAVE_CONTACT', contact: input })}
          onClose={() => onboarding.send({ type: 'CLOSE' })}
        />
      ) : null}
      {dialog === 'payment' ? (
        <CardDialog
          contact={contact}
          countryName={countryName}
          saving={saving}
          onSave={(input) => onboarding.send({ type: 'SAVE_PAYMENT', payment: input })}
          onClose={() => onboarding.send({ type: 'CLOSE' })}
        />
      ) : null}
      {dialog === 'error' && failure ? (
        <MessageDialog
          title={t('error.title')}
          description={t('error.description')}
          button={t('error.ok')}
          onClose={() => onboarding.send({ type: 'CLOSE' })}
        >
          <p role="alert">{errorText(failure.error) || t(`error.${failure.save satisfies FailedSave}`)}</p>
        </MessageDialog>
      ) : null}
      {dialog === 'missingSteps' ? (
        <MessageDialog
          title={t('missing.title')}
          description={t('missing.description')}
          button={t('missing.gotIt')}
          onClose={() => onboarding.send({ type: 'CLOSE' })}
        >
          <ul>
            {missingSteps.map((missing) => (
              <li key={missing}>{t(`missing.${missing}`)}</li>
            ))}
          </ul>
        </MessageDialog>
      ) : null}
    </div>
  );
}

function MessageDialog(props: {
  title: string;
  description: string;
  button: string;
  onClose: () => void;
  children: React.ReactNode;
}) {
  const { t } = useTranslation('onboarding');
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      title={props.title}
      description={props.description}
      closeLabel={t('close')}
    >
      {props.children}
      <div className={styles.buttons}>
        <Button onClick={props.onClose}>{props.button}</Button>
      </div>
    </Dialog>
  );
}
