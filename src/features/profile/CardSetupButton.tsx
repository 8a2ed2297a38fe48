import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { Button } from '../../ui/index.ts';
import * as styles from './profile.css.ts';
import { onboardingRequests } from '../onboarding/index.ts';

/** Saves a card through the payment provider's hosted page (Stripe), which returns to /profile?payment=card-saved&setup_session=…. */
export function CardSetupButton() {
  const { t } = useTranslation('billing');
  const setup = useMutation({
    mutationFn: () => onboardingRequests.cardSetupPage('profile'),
    onSuccess: (url) => window.location.assign(url),
    meta: { disableToast: true },
  });
  return (
    <>
      <Button tone="secondary" title={t('cardSetup.hint')} disabled={setup.isPending} onClick={() => setup.mutate()}>
        {setup.isPending ? t('cardSetup.opening') : t('cardSetup.open')}
      </Button>
      {setup.isError ? (
        <p className={styles.muted} role="alert">
          {errorText(setup.error)}
        </p>
      ) : null}
    </>
  );
}
