import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Banner, Button } from '../../ui/index.ts';
import type { PaymentOutcome } from './payment-return.ts';
import { refreshBalance } from './requests.ts';

/**
 * What came of the hosted payment or card setup the browser returns from. A paid checkout is
 * credited by the provider's notification, which may come after the browser: the balance is asked again.
 */
export function PaymentReturn({ outcome, onDismiss }: { outcome: PaymentOutcome; onDismiss: () => void }) {
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  useEffect(() => {
    if (outcome === 'success') refreshBalance(queryClient);
  }, [outcome, queryClient]);
  return (
    <Banner label={t('paymentReturn.label')} text={t(`paymentReturn.${outcome}`)}>
      <Button size="sm" tone="secondary" onClick={onDismiss}>
        {t('paymentReturn.dismiss')}
      </Button>
    </Banner>
  );
}
