import { style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

export const content = style({
  minWidth: '220px',
  padding: vars.space.xs,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
  boxShadow: vars.shadow.raised,
  zIndex: 50,
});

export const label = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  fontSize: vars.fontSize.sm,
  color: vars.color.textMuted,
  overflowWrap: 'anywhere',
});

export const item = style({
  display: 'flex',
  alignItems: 'center',
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.sm,
  fontSize: vars.fontSize.sm,
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    '&[data-highlighted]': { background: vars.color.surfaceHover },
    '&[data-disabled]': { opacity: 0.5, cursor: 'not-allowed' },
    '&[data-state="open"]': { background: vars.color.surfaceHover },
  },
});

export const subArrow = style({ marginLeft: 'auto', paddingLeft: vars.space.md });

export const separator = style({ height: '1px', margin: `${vars.space.xs} 0`, background: vars.color.border });
