import { useTranslation } from 'react-i18next';
import { Button, Dialog } from '../../ui/index.ts';
import * as styles from './auth.css.ts';

interface PersonalEmailDialogProps {
  open: boolean;
  onContinue: () => void;
  onUseCompanyEmail: () => void;
  /** Focus after closing: the emptied address field once the company email was chosen. */
  onCloseAutoFocus: (event: Event) => void;
}

/** Asked when the server detects a free-mail address; closing it means going back to change the address. */
export function PersonalEmailDialog({
  open,
  onContinue,
  onUseCompanyEmail,
  onCloseAutoFocus,
}: PersonalEmailDialogProps) {
  const { t } = useTranslation(['auth', 'common']);
  return (
    <Dialog
      open={open}
      onOpenChange={(stillOpen) => {
        if (!stillOpen) onUseCompanyEmail();
      }}
      title={t('personalEmail.title')}
      description={t('personalEmail.description')}
      closeLabel={t('common:dialog.close')}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <div className={styles.actions}>
        <Button wide onClick={onContinue}>
          {t('personalEmail.continue')}
        </Button>
        <Button tone="secondary" wide onClick={onUseCompanyEmail}>
          {t('personalEmail.useCompanyEmail')}
        </Button>
      </div>
    </Dialog>
  );
}
