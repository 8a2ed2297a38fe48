import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const page = style({ minHeight: '100vh', display: 'flex', flexDirection: 'column' });

export const header = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.lg,
  padding: `${vars.space.sm} ${vars.space.xl}`,
  borderBottom: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
});

export const logo = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.sm,
  color: vars.color.text,
  fontWeight: 700,
  fontSize: vars.fontSize.lg,
  textDecoration: 'none',
});

export const logoMark = style({ width: '28px', height: '28px', flexShrink: 0 });

globalStyle(`${logoMark} rect`, { fill: vars.color.accent });
globalStyle(`${logoMark} path`, {
  fill: 'none',
  stroke: vars.color.onAccent,
  strokeWidth: 2.5,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
});

export const main = style({ flex: 1, padding: vars.space.xl, display: 'flex', flexDirection: 'column' });

export const message = style({
  margin: 'auto',
  maxWidth: '480px',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: vars.space.md,
  textAlign: 'center',
});

export const muted = style({ color: vars.color.textMuted });

/** What an open page adds to the app bar, beside the balance (InHeader). */
export const headerSlot = style({
  marginLeft: 'auto',
  fontSize: vars.fontSize.sm,
  color: vars.color.textMuted,
  fontVariantNumeric: 'tabular-nums',
});
