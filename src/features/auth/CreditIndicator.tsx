import { useActorRef } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { balanceTone, creditAlertsMachine } from '../../../machines/credit-alerts.ts';
import { toast } from '../../ui/index.ts';
import * as styles from './auth.css.ts';

import { money } from '../../rules/usd.ts';

/**
 * The header's balance (spec §4): red below $0.10, yellow below $1, green otherwise, with the
 * 'Low Credit Balance' and 'Insufficient Credits' notices of machines/credit-alerts.ts when it falls.
 */
export function CreditIndicator({ balance }: { balance: number }) {
  const { t, i18n } = useTranslation();
  const dollars = (amount: number) => money.total(amount, i18n.language);
  const alerts = useActorRef(
    creditAlertsMachine.provide({
      actions: {
        notifyLow: (_, amount) => toast.warning(t('credits.low', { amount: dollars(amount) })),
        notifyInsufficient: (_, amount) => toast.error(t('credits.insufficient', { amount: dollars(amount) })),
      },
    }),
  );
  // The notices are about a balance that falls while the app is open (the session's cost
  // rising): the balance found on opening it only sets the colour.
  const previous = useRef(balance);
  useEffect(() => {
    if (balance !== previous.current) alerts.send({ type: 'BALANCE', dollars: balance });
    previous.current = balance;
  }, [alerts, balance]);
  return (
    <span
      className={styles.credits[balanceTone(balance)]}
      aria-label={t('credits.label', { amount: dollars(balance) })}
    >
      {dollars(balance)}
    </span>
  );
}
