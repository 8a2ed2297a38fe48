import { lazy, Suspense, useSyncExternalStore, type ComponentProps } from 'react';
import type { ExternalToast, Toaster as SonnerToaster } from 'sonner';
import { loadRetrying } from './load-retrying.ts';

// sonner is a twentieth of the first load, and most visits show no toast: it loads with the
// first one (asked again while its download fails). Its Toaster shows the toasts created before it mounted.
const loadSonner = () => loadRetrying(() => import('sonner'));
const LazyToaster = lazy(() => loadSonner().then((sonner) => ({ default: sonner.Toaster })));

// Not a machine: one flag that only ever turns on, read by the Toaster through useSyncExternalStore.
let wanted = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(
  kind: 'error' | 'success' | 'warning' | 'info',
  message: string,
  options?: Pick<ExternalToast, 'duration'>,
) {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  // A toast whose code could not be downloaded in a minute is dropped; the next one asks again.
  loadSonner().then(
    (sonner) => sonner.toast[kind](message, options),
    () => {},
  );
}

/** A short notice in the corner of the page. */
export const toast = {
  error: (message: string, options?: Pick<ExternalToast, 'duration'>) => show('error', message, options),
  success: (message: string, options?: Pick<ExternalToast, 'duration'>) => show('success', message, options),
  warning: (message: string, options?: Pick<ExternalToast, 'duration'>) => show('warning', message, options),
  info: (message: string, options?: Pick<ExternalToast, 'duration'>) => show('info', message, options),
};

/** Where toasts show: sonner's Toaster, mounted once the first toast is asked for. */
export function Toaster(props: ComponentProps<typeof SonnerToaster>) {
  const shown = useSyncExternalStore(subscribe, () => wanted);
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster {...props} />
    </Suspense>
  );
}
