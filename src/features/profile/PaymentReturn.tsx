import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { Banner, Button } from '../../ui/index.ts';
import { onboardingRequests } from '../onboarding/index.ts';
import type { PaymentOutcome } from './payment-return.ts';
import { refreshBalance } from './requests.ts';

/**
 * What came of the hosted payment or card setup the browser returns from. A paid checkout is
 * credited by the provider's notification, which may come after the browser: the balance is asked
 * again. A card setup's session is named to the server, which keeps its card (and grants the
 * payment-details credit once).
 */
export function PaymentReturn({
  outcome,
  setupSession,
  onDismiss,
}: {
  outcome: PaymentOutcome;
  setupSession: string | null;
  onDismiss: () => void;
}) {
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  const keep = useMutation({
    mutationFn: async (session: string) => {
      const { contact } = await onboardingRequests.start();
      if (!contact) throw new Error(t('card.noContact'));
      return onboardingRequests.saveCardSetup({ contact_information_id: contact.id, setup_session_id: session });
    },
    onSuccess: () => refreshBalance(queryClient),
    meta: { disableToast: true },
  });
  const { mutate } = keep;
  // Named once: a second run of the effect (strict mode) must not send it again.
  const kept = useRef(false);
  useEffect(() => {
    if (outcome === 'success') refreshBalance(queryClient);
    if (outcome !== 'card-saved' || !setupSession || kept.current) return;
    kept.current = true;
    mutate(setupSession);
  }, [outcome, setupSession, queryClient, mutate]);
  const text = keep.isPending
    ? t('paymentReturn.keeping')
    : keep.isError
      ? errorText(keep.error) || t('paymentReturn.keepFailed')
      : t(`paymentReturn.${outcome}`);
  return (
    <Banner label={t('paymentReturn.label')} text={text}>
      <Button size="sm" tone="secondary" onClick={onDismiss}>
        {t('paymentReturn.dismiss')}
      </Button>
    </Banner>
  );
}
