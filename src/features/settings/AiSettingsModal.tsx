import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Dialog, Spinner } from '../../ui/index.ts';
import { ModelSettingsForm } from './ModelSettingsForm.tsx';
import { optionRequests, settingsQueryKeys } from './requests.ts';
import * as styles from './settings.css.ts';

/** The AI settings modal: the model settings in a dialog, with the way to the advanced ones at /settings. */
export function AiSettingsModal({
  open,
  onClose,
  endSession,
}: {
  open: boolean;
  onClose: () => void;
  /** Inside a running conversation: saving asks first, then ends its session (the next message starts it anew). */
  endSession?: () => Promise<void>;
}) {
  const { t } = useTranslation('settings');
  const models = useQuery({
    queryKey: settingsQueryKeys.options('models'),
    queryFn: ({ signal }) => optionRequests.models(signal),
    enabled: open,
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={t('modal.title')}
      description={t('modal.description')}
      closeLabel={t('close')}
    >
      {models.data ? (
        <ModelSettingsForm knownModels={models.data} onSaved={onClose} {...(endSession && { endSession })} />
      ) : null}
      {models.isPending ? <Spinner label={t('loading')} /> : null}
      {models.isError ? <p className={styles.error}>{t('loadFailed')}</p> : null}
      <p className={styles.muted}>
        <Link to="/settings" onClick={onClose}>
          {t('modal.advancedLink')}
        </Link>
      </p>
    </Dialog>
  );
}
