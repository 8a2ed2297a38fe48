import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

export const status = style({ padding: `0 ${vars.space.sm}`, fontSize: vars.fontSize.sm, color: vars.color.textMuted });
export const banner = style({
  margin: vars.space.sm,
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  fontSize: vars.fontSize.sm,
});
export const form = style({
  display: 'flex',
  alignItems: 'flex-end',
  gap: vars.space.sm,
  padding: vars.space.sm,
  borderTop: `1px solid ${vars.color.border}`,
});
export const files = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs, padding: `0 ${vars.space.sm}` });
export const hiddenInput = style({ display: 'none' });
