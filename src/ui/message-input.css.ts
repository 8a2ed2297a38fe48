import { style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

/** A message box (the chat's, the DevOps tab's): grows with its text up to 6 rows. */
export const messageTextarea = style({
  flex: '1 1 8rem',
  minWidth: 0,
  resize: 'none',
  fieldSizing: 'content',
  minHeight: '40px',
  // 6 rows of 1.5em plus the padding.
  maxHeight: `calc(6 * 1.5em + 2 * ${vars.space.sm})`,
  lineHeight: 1.5,
  padding: vars.space.sm,
  font: 'inherit',
  color: vars.color.text,
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: '1px' } },
});
