import { style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

export const row = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm });

export const box = style({
  width: '20px',
  height: '20px',
  flexShrink: 0,
  display: 'grid',
  placeItems: 'center',
  padding: 0,
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.onAccent,
  cursor: 'pointer',
  selectors: {
    '&[data-state="checked"]': { background: vars.color.accent, borderColor: vars.color.accent },
  },
});

export const label = style({ fontSize: vars.fontSize.sm, cursor: 'pointer' });
