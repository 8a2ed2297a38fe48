import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { cardDialogMachine, selectFailure, selectIsOpen, selectIsSaving } from '../../../machines/card-dialog.ts';
import { errorText } from '../../api/errors.ts';
import { Button, toast } from '../../ui/index.ts';
import { CardDialog, onboardingRequests } from '../onboarding/index.ts';
import * as styles from './profile.css.ts';
import { refreshBalance } from './requests.ts';

/** What onboarding saved: the contact (whose id a card is saved under) and the card shown. */
const savedOnboarding = {
  queryKey: ['user', 'onboarding', 'saved'] as const,
  queryFn: () => onboardingRequests.start(),
};

/** The provider's brand id as a name: visa → Visa, mastercard → Mastercard. */
const brandName = (brand: string) => brand.charAt(0).toUpperCase() + brand.slice(1);

/**
 * The saved card, and the "Add credit or debit card" dialog (spec §2) to add or replace it, for
 * the test payment provider (with Stripe, its hosted page saves the card: CardSetupButton).
 */
export function CardPanel() {
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  const saved = useQuery(savedOnboarding);
  // The actor reads the contact through the query client when it runs, not from this render.
  const dialog = useActorRef(
    cardDialogMachine.provide({
      actors: {
        saveCard: fromPromise(async ({ input }) => {
          const { contact } = await queryClient.ensureQueryData(savedOnboarding);
          if (!contact) throw new Error(t('card.noContact'));
          await onboardingRequests.savePayment({ ...input, contact_information_id: contact.id });
        }),
      },
      actions: {
        saved: () => {
          void queryClient.invalidateQueries({ queryKey: savedOnboarding.queryKey });
          refreshBalance(queryClient);
          toast.success(t('card.done'));
        },
      },
    }),
  );
  const open = useSelector(dialog, selectIsOpen);
  const saving = useSelector(dialog, selectIsSaving);
  const failure = useSelector(dialog, selectFailure);
  const contact = saved.data?.contact ?? null;
  const card = contact?.payment_information ?? null;
  return (
    <div className={styles.balanceRow}>
      <p>{card ? t('card.saved', { brand: brandName(card.card_brand), last4: card.card_last4 }) : t('card.none')}</p>
      <Button tone="secondary" disabled={saved.isPending} onClick={() => dialog.send({ type: 'OPEN' })}>
        {card ? t('card.replace') : t('card.add')}
      </Button>
      {open ? (
        <CardDialog
          contact={contact}
          countryName={null}
          saving={saving}
          error={failure ? errorText(failure) : null}
          onSave={(payment) => dialog.send({ type: 'SAVE', payment })}
          onClose={() => dialog.send({ type: 'CLOSE' })}
        />
      ) : null}
    </div>
  );
}
