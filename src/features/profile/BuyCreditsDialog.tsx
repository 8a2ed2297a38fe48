import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import {
  buyCreditsMachine,
  selectAmount,
  selectAmountProblem,
  selectCanBuy,
  selectFailure,
  selectProcessing,
} from '../../../machines/buy-credits.ts';
import { errorText } from '../../api/errors.ts';
import { money } from '../../rules/usd.ts';
import { Button, Dialog, TextField, toast } from '../../ui/index.ts';
import * as styles from './profile.css.ts';
import { purchaseCredits, refreshBalance } from './requests.ts';

/** Buy Credits (spec §2): the amount in dollars, at least $5; the purchase itself is the machine's. */
export function BuyCreditsDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation('billing');
  const queryClient = useQueryClient();
  // One key per dialog: with the machine's count of purchases, each purchase's Idempotency-Key.
  const buy = useActorRef(
    buyCreditsMachine.provide({
      actors: { purchase: fromPromise(({ input }) => purchaseCredits(input)) },
      actions: {
        purchased: (_, balance) => {
          refreshBalance(queryClient);
          toast.success(t('buy.done', { balance: money.total(balance, i18n.language) }));
          onClose();
        },
        openPaymentPage: (_, url) => window.location.assign(url),
      },
    }),
    { input: { dialogKey: crypto.randomUUID() } },
  );
  const amount = useSelector(buy, selectAmount);
  const problem = useSelector(buy, selectAmountProblem);
  const canBuy = useSelector(buy, selectCanBuy);
  const processing = useSelector(buy, selectProcessing);
  const failure = useSelector(buy, selectFailure);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    buy.send({ type: 'BUY' });
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('buy.title')}
      description={t('buy.description')}
      closeLabel={t('buy.close')}
    >
      <form className={styles.dialogForm} onSubmit={submit}>
        <TextField
          label={t('buy.amount')}
          value={amount}
          inputMode="decimal"
          onChange={(event) => buy.send({ type: 'AMOUNT_CHANGED', text: event.target.value })}
          hint={t('buy.hint')}
          error={problem ? t('buy.minimum') : undefined}
          disabled={processing}
        />
        <p className={styles.taxes}>
          <span>{t('buy.taxes')}</span>
          <span>$0.00</span>
        </p>
        {failure ? (
          <p className={styles.failure} role="alert">
            {errorText(failure) || t('buy.failed')}
          </p>
        ) : null}
        <Button type="submit" disabled={!canBuy}>
          {processing ? t('buy.processing') : t('buy.submit')}
        </Button>
      </form>
    </Dialog>
  );
}
