import { Slot } from 'radix-ui';
import type { ComponentProps } from 'react';
import { button, type ButtonVariants } from './button.css.ts';

type ButtonProps = ComponentProps<'button'> &
  ButtonVariants & {
    /** Render the child element (for example a router link) with the button's look. */
    asChild?: boolean;
  };

export function Button({ tone, size, wide, asChild = false, className, type = 'button', ...props }: ButtonProps) {
  const classes = [button({ tone, size, wide }), className].filter(Boolean).join(' ');
  if (asChild) return <Slot.Root className={classes} {...props} />;
  return <button type={type} className={classes} {...props} />;
}
