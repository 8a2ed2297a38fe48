import type { ReactNode } from 'react';
import { Button } from './Button.tsx';
import { Dialog } from './Dialog.tsx';
import * as styles from './dialog.css.ts';

export interface ConfirmDialogProps {
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel: string;
  closeLabel: string;
  onConfirm: () => void;
  /** Cancel, Escape and the close button. */
  onCancel: () => void;
  /** While the confirmed action runs: the confirm button waits. */
  busy?: boolean;
  children?: ReactNode;
}

/** Asks before an action: Cancel (or Escape) keeps things as they are, the confirm button goes ahead. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && props.onCancel()}
      title={props.title}
      description={props.description}
      closeLabel={props.closeLabel}
    >
      {props.children}
      <div className={styles.buttons}>
        <Button tone="secondary" onClick={props.onCancel}>
          {props.cancelLabel}
        </Button>
        <Button disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
