import { Slot } from 'radix-ui';
import {
  createContext,
  use,
  useCallback,
  useEffect,
  useRef,
  useState,
  type ComponentProps,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { whenIdle } from './after-paint.ts';
import type * as RadixParts from './RadixDropdownMenu.tsx';

// Radix's menu (with floating-ui, which places it) is a tenth of every page's first load, and no
// menu is open then. The triggers show at once; the menu code loads once the page is idle,
// and a trigger pressed before it has arrived opens its menu when it does. Measured 2026-12-07
// with Radix's menu imported directly: entry 187.0 kB gzip (budget 170), workspace 238.1 kB (230).
type Parts = typeof RadixParts;
let loaded: Parts | null = null;
let loading: Promise<Parts | null> | null = null;

/** The menu code, or null when its download failed (pressing a trigger tries again). */
function loadParts(): Promise<Parts | null> {
  loading ??= import('./RadixDropdownMenu.tsx').then(
    (module) => (loaded = module),
    () => (loading = null),
  );
  return loading;
}

/** The parts inside an open menu, which only renders once they have loaded. */
function loadedParts(): Parts {
  if (!loaded) throw new Error('a menu rendered its content before the menu code loaded');
  return loaded;
}

interface MenuState {
  parts: Parts | null;
  /** The trigger was pressed before the menu code arrived: open the menu when it does. */
  press(): void;
  /** The stand-in trigger shown until then. */
  standInRef: RefObject<HTMLElement | null>;
  /** Gives the real trigger the focus the stand-in had when they were swapped. */
  triggerRef(node: HTMLButtonElement | null): void;
}

const MenuContext = createContext<MenuState | null>(null);

function useMenu(): MenuState {
  const menu = use(MenuContext);
  if (!menu) throw new Error('a menu part rendered outside <DropdownMenu>');
  return menu;
}

/**
 * A menu opened from a trigger; arrow keys move between items, Escape closes it. `modal: false`
 * leaves the page outside the menu reachable (no aria-hidden on it while the menu is open).
 */
export function DropdownMenu({ children, modal = true }: { children: ReactNode; modal?: boolean }) {
  const [parts, setParts] = useState(() => loaded);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const standInRef = useRef<HTMLElement>(null);
  const refocus = useRef(false);
  const load = useCallback(() => {
    void loadParts().then((module) => {
      if (!module) return;
      refocus.current = standInRef.current !== null && standInRef.current === document.activeElement;
      setParts(() => module);
    });
  }, []);
  useEffect(() => {
    if (!parts) whenIdle(load);
  }, [parts, load]);
  const triggerRef = useCallback((node: HTMLButtonElement | null) => {
    if (node && refocus.current) {
      refocus.current = false;
      node.focus();
    }
  }, []);
  const press = useCallback(() => {
    setOpenOnLoad(true);
    load();
  }, [load]);
  return (
    <MenuContext value={{ parts, press, standInRef, triggerRef }}>
      {parts ? (
        <parts.DropdownMenu defaultOpen={openOnLoad} modal={modal}>
          {children}
        </parts.DropdownMenu>
      ) : (
        children
      )}
    </MenuContext>
  );
}

/** The keys that open a menu from its trigger, as Radix's trigger has them. */
const OPEN_KEYS = ['Enter', ' ', 'ArrowDown'];

/** The element that opens the menu; pass a Button as the only child. */
export function DropdownMenuTrigger({ children }: { children: ReactNode }) {
  const { parts, press, standInRef, triggerRef } = useMenu();
  if (parts) return <parts.DropdownMenuTrigger ref={triggerRef}>{children}</parts.DropdownMenuTrigger>;
  const onPointerDown = (event: PointerEvent) => {
    if (event.button !== 0 || event.ctrlKey) return;
    event.preventDefault();
    press();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!OPEN_KEYS.includes(event.key)) return;
    event.preventDefault();
    press();
  };
  return (
    <Slot.Root
      ref={standInRef}
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    >
      {children}
    </Slot.Root>
  );
}

export function DropdownMenuContent(props: ComponentProps<Parts['DropdownMenuContent']>) {
  const { parts } = useMenu();
  return parts && <parts.DropdownMenuContent {...props} />;
}

export function DropdownMenuLabel({ children }: { children: ReactNode }) {
  const { DropdownMenuLabel: Label } = loadedParts();
  return <Label>{children}</Label>;
}

export function DropdownMenuItem(props: ComponentProps<Parts['DropdownMenuItem']>) {
  const { DropdownMenuItem: Item } = loadedParts();
  return <Item {...props} />;
}

export function DropdownMenuSeparator() {
  const { DropdownMenuSeparator: Separator } = loadedParts();
  return <Separator />;
}

/** A submenu inside a menu: its trigger is an item (ArrowRight or Enter opens it, ArrowLeft closes it). */
export function DropdownMenuSub({ children }: { children: ReactNode }) {
  const { DropdownMenuSub: Sub } = loadedParts();
  return <Sub>{children}</Sub>;
}

export function DropdownMenuSubTrigger({ children }: { children: ReactNode }) {
  const { DropdownMenuSubTrigger: SubTrigger } = loadedParts();
  return <SubTrigger>{children}</SubTrigger>;
}

export function DropdownMenuSubContent({ children }: { children: ReactNode }) {
  const { DropdownMenuSubContent: SubContent } = loadedParts();
  return <SubContent>{children}</SubContent>;
}
