import { style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

export const banner = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  fontSize: vars.fontSize.sm,
});

export const text = style({ margin: 0, flex: '1 1 20em' });
