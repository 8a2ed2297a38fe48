import { style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs });

export const label = style({ fontSize: vars.fontSize.sm, fontWeight: 600 });

export const input = style({
  font: 'inherit',
  padding: `${vars.space.sm} ${vars.space.md}`,
  minHeight: '40px',
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
  selectors: {
    '&[aria-invalid="true"]': { borderColor: vars.color.danger },
    '&:disabled': { opacity: 0.6 },
  },
});

export const error = style({ color: vars.color.danger, fontSize: vars.fontSize.sm, margin: 0 });

export const hint = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm, margin: 0 });
