import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const home = style({
  flex: 1,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: vars.space.lg,
  padding: vars.space.xl,
});

export const heading = style({ marginTop: 'auto', fontSize: vars.fontSize.xl, fontWeight: 700, textAlign: 'center' });

export const invitation = style({ margin: 0, textAlign: 'center', color: vars.color.textMuted });

export const prompt = style({
  width: '100%',
  maxWidth: '720px',
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  background: vars.color.surface,
  selectors: { '&:focus-within': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: '2px' } },
});

export const box = style({
  width: '100%',
  minHeight: '72px',
  // Grows with its text up to 200 px, then scrolls (spec §9).
  maxHeight: '200px',
  fieldSizing: 'content',
  resize: 'none',
  border: 'none',
  background: 'transparent',
  color: vars.color.text,
  font: 'inherit',
  outline: 'none',
});

export const actions = style({ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: vars.space.sm });

export const quickStarts = style({ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: vars.space.sm });

export const footer = style({ marginTop: 'auto', color: vars.color.textMuted, fontSize: vars.fontSize.sm });

export const footerLinks = style({ display: 'flex', gap: vars.space.lg });

export const repository = style({
  width: '100%',
  maxWidth: '720px',
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
});
export const pickedRow = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, flexWrap: 'wrap' });
export const search = style({
  flex: 1,
  font: 'inherit',
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
});
export const repositoryList = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  maxHeight: '240px',
  overflowY: 'auto',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  selectors: { '&:empty': { display: 'none' } },
});
export const repositoryButton = style({
  width: '100%',
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: 0,
  background: 'transparent',
  color: vars.color.text,
  font: 'inherit',
  textAlign: 'left',
  cursor: 'pointer',
  selectors: { '&:hover, &:focus-visible': { background: vars.color.surfaceHover } },
});
export const branchField = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm });
export const muted = style({ color: vars.color.textMuted });
