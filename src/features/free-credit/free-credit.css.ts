import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const banners = style({ display: 'flex', flexDirection: 'column' });

export const page = style({
  width: '100%',
  maxWidth: '560px',
  margin: '0 auto',
  padding: vars.space.lg,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.md,
});

export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });

export const agreement = style({
  margin: 0,
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
});

export const failure = style({ color: vars.color.danger, fontSize: vars.fontSize.sm, margin: 0 });
