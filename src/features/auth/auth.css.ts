import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space.lg });

export const actions = style({ display: 'flex', flexDirection: 'column', gap: vars.space.sm });

export const failure = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.danger}`,
  color: vars.color.danger,
  fontSize: vars.fontSize.sm,
  whiteSpace: 'pre-line',
});

export const note = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.sm });

export const switchMode = style({
  margin: 0,
  display: 'flex',
  gap: vars.space.xs,
  justifyContent: 'center',
  alignItems: 'baseline',
  fontSize: vars.fontSize.sm,
  color: vars.color.textMuted,
});

export const headerControls = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm });
