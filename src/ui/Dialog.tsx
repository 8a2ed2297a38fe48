import { Suspense } from 'react';
import type { DialogProps } from './ModalDialog.tsx';
import { lazyRetrying } from './load-retrying.ts';

// Radix's dialog (focus trap, scroll lock, portal) is needed only while a dialog is open, and
// dialogs open rarely: it loads with the first one instead of with the page.
const ModalDialog = lazyRetrying(() => import('./ModalDialog.tsx').then((module) => ({ default: module.ModalDialog })));

/** A modal dialog: focus is trapped inside, Escape and the close button close it. */
export function Dialog(props: DialogProps) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  );
}
