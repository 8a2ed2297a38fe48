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
  /** False for a form that must not be lost to a stray click beside it: only its buttons and Escape close it. */
  closeOnOutsideClick?: boolean;
  /** A dialog holding a table: as wide as the screen allows up to 880 px, so its columns show without scrolling. */
  wide?: boolean;
  /** Where focus goes when the dialog closes (Radix's default: back to what opened it). */
  onCloseAutoFocus?: (event: Event) => void;
}

/** The open dialog: focus is trapped inside, Escape and the close button close it. */
export function ModalDialog(props: DialogProps) {
  const {
    open,
    onOpenChange,
    title,
    description,
    closeLabel,
    children,
    closeOnOutsideClick = true,
    wide,
    onCloseAutoFocus,
  } = props;
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} />
        <RadixDialog.Content
          className={wide ? `${styles.content} ${styles.wide}` : styles.content}
          onInteractOutside={closeOnOutsideClick ? undefined : (event) => event.preventDefault()}
          onCloseAutoFocus={onCloseAutoFocus}
        >
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
