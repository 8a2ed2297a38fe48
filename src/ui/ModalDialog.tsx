import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import * as styles from './dialog.css.ts';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  /** Accessible name of the close button. */
  closeLabel: string;
  children: ReactNode;
}

/** The open dialog: focus is trapped inside, Escape and the close button close it. */
export function ModalDialog({ open, onOpenChange, title, description, closeLabel, children }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} />
        <RadixDialog.Content className={styles.content}>
          <div className={styles.header}>
            <div>
              <RadixDialog.Title className={styles.title}>{title}</RadixDialog.Title>
              <RadixDialog.Description className={styles.description}>{description}</RadixDialog.Description>
            </div>
            <RadixDialog.Close className={styles.close} aria-label={closeLabel}>
              <span aria-hidden="true">×</span>
            </RadixDialog.Close>
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
