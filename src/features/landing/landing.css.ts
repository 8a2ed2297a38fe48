import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

// The application's buttons, as links (the recipe's class names, no component).
export { button as action } from '../../ui/button.css.ts';

const width = { maxWidth: '1080px', marginInline: 'auto', paddingInline: vars.space.xl } as const;

export const page = style({ minHeight: '100vh', display: 'flex', flexDirection: 'column' });

export const banner = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.md,
  padding: `${vars.space.sm} ${vars.space.xl}`,
  background: vars.color.accent,
  color: vars.color.onAccent,
  fontSize: vars.fontSize.sm,
  textAlign: 'center',
  selectors: { '&[hidden]': { display: 'none' } },
});
export const bannerLink = style({ color: 'inherit', fontWeight: 600 });
export const bannerClose = style({
  border: 0,
  background: 'transparent',
  color: 'inherit',
  fontSize: vars.fontSize.lg,
  lineHeight: 1,
  cursor: 'pointer',
  padding: vars.space.xs,
});

export const header = style({
  ...width,
  width: '100%',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.lg,
  paddingBlock: vars.space.lg,
  flexWrap: 'wrap',
});
export const brand = style({
  fontWeight: 700,
  fontSize: vars.fontSize.lg,
  color: vars.color.text,
  textDecoration: 'none',
});
export const nav = style({ display: 'flex', alignItems: 'center', gap: vars.space.lg, flexWrap: 'wrap' });
globalStyle(`${nav} > a:not([class])`, { color: vars.color.text, textDecoration: 'none' });

export const hero = style({ ...width, paddingBlock: '72px 48px', textAlign: 'center' });
export const heroTitle = style({
  fontSize: 'clamp(2rem, 5vw, 3.25rem)',
  lineHeight: 1.15,
  marginBottom: vars.space.lg,
});
export const lead = style({
  maxWidth: '720px',
  marginInline: 'auto',
  color: vars.color.textMuted,
  fontSize: '1.125rem',
});
export const actions = style({
  display: 'flex',
  justifyContent: 'center',
  gap: vars.space.md,
  flexWrap: 'wrap',
  marginTop: vars.space.xl,
});

export const stats = style({
  listStyle: 'none',
  padding: 0,
  margin: '48px auto 0',
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(160px, 1fr))',
  gap: vars.space.lg,
  maxWidth: '720px',
});
export const stat = style({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  color: vars.color.textMuted,
});
export const figure = style({
  fontSize: '2.5rem',
  fontWeight: 700,
  color: vars.color.text,
  fontVariantNumeric: 'tabular-nums',
});

export const section = style({ ...width, width: '100%', paddingBlock: '48px' });
export const sectionTitle = style({ fontSize: vars.fontSize.xl, marginBottom: vars.space.xl, textAlign: 'center' });
export const grid = style({
  listStyle: 'none',
  padding: 0,
  margin: 0,
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))',
  gap: vars.space.lg,
});
export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  padding: vars.space.xl,
});
export const cardTitle = style({ fontSize: vars.fontSize.lg, marginBottom: vars.space.sm });
export const quote = style({ margin: 0, display: 'flex', flexDirection: 'column', gap: vars.space.md });
export const muted = style({ color: vars.color.textMuted });
export const reasons = style({ maxWidth: '720px', margin: `${vars.space.xl} auto 0`, lineHeight: 1.7 });

export const closing = style({ ...width, width: '100%', paddingBlock: '64px', textAlign: 'center' });
globalStyle(`${closing} > p`, { color: vars.color.textMuted, marginBottom: vars.space.xl });

export const footer = style({
  ...width,
  width: '100%',
  marginTop: 'auto',
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.lg,
  paddingBlock: vars.space.xl,
  borderTop: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.sm,
});
