import { style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

export const avatar = style({
  width: '32px',
  height: '32px',
  flexShrink: 0,
  display: 'inline-grid',
  placeItems: 'center',
  borderRadius: vars.radius.full,
  background: vars.color.accent,
  color: vars.color.onAccent,
  fontWeight: 700,
  fontSize: vars.fontSize.sm,
  textTransform: 'uppercase',
});
