import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const page = style({
  width: '100%',
  maxWidth: '560px',
  margin: '0 auto',
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xl,
});

export const title = style({ fontSize: vars.fontSize.xl, fontWeight: 700 });

export const account = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.md,
  padding: vars.space.lg,
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
});

export const accountHeading = style({ fontSize: vars.fontSize.sm, color: vars.color.textMuted, fontWeight: 600 });

export const identity = style({ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' });

export const name = style({ fontWeight: 600 });

export const email = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm, overflowWrap: 'anywhere' });
