import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { claimCreditMachine, selectClaiming, type ClaimField } from '../../../machines/claim-credit.ts';
import { errorText } from '../../api/errors.ts';
import { refreshCurrentUser } from '../../api/queries.ts';
import { useClientConfig } from '../../app/hooks.ts';
import { Button, TextField, toast } from '../../ui/index.ts';
import { Checkbox } from '../../ui/Checkbox.tsx';
import * as styles from './free-credit.css.ts';
import { onboardingRequests } from '../onboarding/index.ts';
import { freeCreditRequests } from './requests.ts';

/**
 * The claim-credit page (spec §2, §4): verify a card for the $100 trial, with no charge. With
 * Stripe its own page takes and verifies the card, and sends the browser back with `setupSession`.
 */
export function ClaimCreditPage({ setupSession }: { setupSession: string | null }) {
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const hostedCard = useClientConfig()?.HOSTED_PAYMENTS ?? false;
  // The route remounts the page for another setup session, so the first render's input is the visit's.
  const claim = useActorRef(
    claimCreditMachine.provide({
      actors: {
        claim: fromPromise(async ({ input: { setupSession: session, ...form } }) => {
          const claimed = session
            ? await freeCreditRequests.claimWithCardSetup({
                setup_session_id: session,
                billing_address: form.billing_address,
                acceptTerms: true,
              })
            : await freeCreditRequests.claim({ ...form, acceptTerms: true });
          toast.success(claimed.message ?? t('claim.done'));
          return claimed;
        }),
        startCardSetup: fromPromise(() => onboardingRequests.cardSetupPage('claim')),
      },
      actions: {
        claimed: () => {
          void refreshCurrentUser(queryClient);
          void navigate({ to: '/dashboard' });
        },
        openCardSetup: (_, url) => window.location.assign(url),
      },
    }),
    { input: { hostedCard, setupSession } },
  );
  const { form, errors, failure } = useSelector(claim, (snapshot) => snapshot.context);
  const claiming = useSelector(claim, selectClaiming);
  const change = (field: ClaimField, value: string | boolean) => claim.send({ type: 'CHANGE', field, value });
  const error = (field: ClaimField) => (errors[field] ? t(`claim.errors.${errors[field]}`) : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    claim.send({ type: 'SUBMIT' });
  };
  return (
    <div className={styles.page}>
      <h1>{t('claim.title')}</h1>
      <p>{t('claim.description')}</p>
      {hostedCard ? (
        <div className={styles.form}>
          <p>{setupSession ? t('claim.hosted.verified') : t('claim.hosted.note')}</p>
          <Button
            tone={setupSession ? 'secondary' : 'primary'}
            disabled={claiming}
            onClick={() => claim.send({ type: 'OPEN_CARD_SETUP' })}
          >
            {setupSession ? t('claim.hosted.another') : t('claim.hosted.open')}
          </Button>
        </div>
      ) : null}
      {/* With Stripe's page, the address and the terms come once that page verified a card. */}
      {hostedCard && !setupSession ? (
        failure ? (
          <p className={styles.failure} role="alert">
            {errorText(failure) || t('claim.failed')}
          </p>
        ) : null
      ) : (
        <form className={styles.form} onSubmit={submit} noValidate>
          {hostedCard ? null : (
            <>
              <TextField
                label={t('claim.cardNumber')}
                value={form.card_number}
                inputMode="numeric"
                autoComplete="cc-number"
                onChange={(event) => change('card_number', event.target.value)}
                error={error('card_number')}
              />
              <TextField
                label={t('claim.expiry')}
                value={form.expiry_date}
                placeholder="MM/YY"
                autoComplete="cc-exp"
                onChange={(event) => change('expiry_date', event.target.value)}
                error={error('expiry_date')}
              />
              <TextField
                label={t('claim.securityCode')}
                value={form.security_code}
                inputMode="numeric"
                autoComplete="cc-csc"
                onChange={(event) => change('security_code', event.target.value)}
                error={error('security_code')}
              />
              <TextField
                label={t('claim.holder')}
                value={form.card_holder_name}
                autoComplete="cc-name"
                onChange={(event) => change('card_holder_name', event.target.value)}
                error={error('card_holder_name')}
              />
            </>
          )}
          <TextField
            label={t('claim.address')}
            value={form.billing_address}
            autoComplete="street-address"
            onChange={(event) => change('billing_address', event.target.value)}
            error={error('billing_address')}
          />
          <Checkbox
            label={t('claim.terms')}
            checked={form.acceptTerms}
            onCheckedChange={(checked) => change('acceptTerms', checked)}
          />
          {errors.acceptTerms ? (
            <p className={styles.failure} role="alert">
              {t(`claim.errors.${errors.acceptTerms}`)}
            </p>
          ) : null}
          {failure ? (
            <p className={styles.failure} role="alert">
              {errorText(failure) || t('claim.failed')}
            </p>
          ) : null}
          <Button type="submit" disabled={claiming}>
            {t('claim.submit')}
          </Button>
        </form>
      )}
    </div>
  );
}
