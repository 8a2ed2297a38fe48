import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
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

/** Asks before an action that cannot be undone; runs it, refreshes `refresh` and closes, or shows why it failed. */
export function ConfirmActionDialog(props: {
  title: string;
  description: string;
  confirmLabel: string;
  action: () => Promise<unknown>;
  refresh: QueryKey;
  onClose: () => void;
}) {
  const { t } = useTranslation('settings');
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: props.action,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: props.refresh });
      props.onClose();
    },
    meta: { disableToast: true },
  });
  return (
    <ConfirmDialog
      title={props.title}
      description={props.description}
      confirmLabel={props.confirmLabel}
      cancelLabel={t('cancel')}
      closeLabel={t('close')}
      busy={run.isPending}
      onConfirm={() => run.mutate()}
      onCancel={props.onClose}
    >
      <ErrorAlert error={run.error} />
    </ConfirmDialog>
  );
}
