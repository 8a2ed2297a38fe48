import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

interface Slot {
  element: HTMLElement | null;
  setElement: (element: HTMLElement | null) => void;
}

const SlotContext = createContext<Slot | null>(null);

/** Holds the app bar's place for what an open page adds to it (a conversation's cost beside the balance). */
export function HeaderSlotProvider({ children }: { children: ReactNode }) {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const slot = useMemo(() => ({ element, setElement }), [element]);
  return <SlotContext.Provider value={slot}>{children}</SlotContext.Provider>;
}

/** The place itself, in the app bar. */
export function HeaderSlot({ className }: { className?: string }) {
  const slot = useContext(SlotContext);
  return <span ref={slot?.setElement} className={className} />;
}

/** Shows its children in the app bar's place while it is rendered (nothing outside the app shell). */
export function InHeader({ children }: { children: ReactNode }) {
  const element = useContext(SlotContext)?.element;
  return element ? createPortal(children, element) : null;
}
