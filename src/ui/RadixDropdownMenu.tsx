import { DropdownMenu as RadixMenu } from 'radix-ui';
import type { ComponentProps, ReactNode, Ref } from 'react';
import * as styles from './dropdown-menu.css.ts';

/** A menu opened from a trigger; arrow keys move between items, Escape closes it. */
export const DropdownMenu = RadixMenu.Root;

/** The element that opens the menu; pass a Button as the only child. */
export function DropdownMenuTrigger({ children, ref }: { children: ReactNode; ref?: Ref<HTMLButtonElement> }) {
  return (
    <RadixMenu.Trigger asChild ref={ref}>
      {children}
    </RadixMenu.Trigger>
  );
}

export interface DropdownMenuContentProps {
  children: ReactNode;
  /** On closing, focus goes back to the trigger unless this prevents it (an item that focuses a field of its own). */
  onCloseAutoFocus?: (event: Event) => void;
}

export function DropdownMenuContent({ children, onCloseAutoFocus }: DropdownMenuContentProps) {
  return (
    <RadixMenu.Portal>
      <RadixMenu.Content className={styles.content} align="end" sideOffset={6} onCloseAutoFocus={onCloseAutoFocus}>
        {children}
      </RadixMenu.Content>
    </RadixMenu.Portal>
  );
}

export function DropdownMenuLabel({ children }: { children: ReactNode }) {
  return <RadixMenu.Label className={styles.label}>{children}</RadixMenu.Label>;
}

export function DropdownMenuItem(props: Omit<ComponentProps<typeof RadixMenu.Item>, 'className'>) {
  return <RadixMenu.Item className={styles.item} {...props} />;
}

export function DropdownMenuSeparator() {
  return <RadixMenu.Separator className={styles.separator} />;
}

/** A submenu inside a menu: its trigger is an item (ArrowRight or Enter opens it, ArrowLeft closes it). */
export const DropdownMenuSub = RadixMenu.Sub;

export function DropdownMenuSubTrigger({ children }: { children: ReactNode }) {
  return (
    <RadixMenu.SubTrigger className={styles.item}>
      {children}
      <span className={styles.subArrow} aria-hidden="true">
        ›
      </span>
    </RadixMenu.SubTrigger>
  );
}

export function DropdownMenuSubContent({ children }: { children: ReactNode }) {
  return (
    <RadixMenu.Portal>
      <RadixMenu.SubContent className={styles.content} sideOffset={4}>
        {children}
      </RadixMenu.SubContent>
    </RadixMenu.Portal>
  );
}
