import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { ConfirmDialog } from '../../ui/index.ts';
import * as styles from './settings.css.ts';

/** The server's words for a failed call, announced; nothing while it has not failed. */
export function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className={styles.error} role="alert">
      {errorText(error)}
    </p>
  );
}

/** Asks before an action that cannot be undone; the caller runs it and says when it is busy or why it failed. */
export function ConfirmActionDialog(props: {
  title: string;
  description: string;
  confirmLabel: string;
  busy: boolean;
  failure: unknown;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('settings');
  return (
    <ConfirmDialog
      title={props.title}
      description={props.description}
      confirmLabel={props.confirmLabel}
      cancelLabel={t('cancel')}
      closeLabel={t('close')}
      busy={props.busy}
      onConfirm={props.onConfirm}
      onCancel={props.onClose}
    >
      <ErrorAlert error={props.failure} />
    </ConfirmDialog>
  );
}
