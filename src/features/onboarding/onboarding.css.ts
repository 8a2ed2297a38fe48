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

export const identity = style({ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' });

export const name = style({ fontWeight: 600 });

export const email = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm, overflowWrap: 'anywhere' });

export const layout = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.xl,
  justifyContent: 'center',
  padding: vars.space.lg,
});

export const section = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });

export const stepLabel = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.sm });

export const sectionHeading = style({ margin: 0, fontSize: vars.fontSize.lg });

export const block = style({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'flex-start',
  gap: vars.space.sm,
  padding: vars.space.lg,
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.border}`,
});

export const blockHeading = style({ margin: 0, fontSize: vars.fontSize.md });

export const summary = style({ margin: 0 });

export const muted = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.sm });

export const buttons = style({ display: 'flex', justifyContent: 'flex-end', gap: vars.space.sm });

export const dialogForm = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });

export const side = style({
  width: 'min(280px, 100%)',
  alignSelf: 'flex-start',
  padding: vars.space.lg,
  borderRadius: vars.radius.lg,
  background: vars.color.surface,
});

export const error = style({ margin: 0, color: vars.color.danger, fontSize: vars.fontSize.sm });
