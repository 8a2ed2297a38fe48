import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const buttons = style({
  display: 'flex',
  justifyContent: 'flex-end',
  gap: vars.space.sm,
  marginTop: vars.space.md,
});
export const facts = style({ display: 'grid', gap: vars.space.xs, margin: 0 });
export const fact = style({ display: 'flex', justifyContent: 'space-between', gap: vars.space.lg });
export const scroll = style({ maxHeight: '60vh', overflowY: 'auto', marginTop: vars.space.md });
export const tabList = style({ display: 'flex', gap: vars.space.xs, borderBottom: `1px solid ${vars.color.border}` });
export const tab = style({
  padding: `${vars.space.xs} ${vars.space.md}`,
  border: 'none',
  background: 'transparent',
  color: vars.color.textMuted,
  font: 'inherit',
  cursor: 'pointer',
  selectors: { '&[data-state="active"]': { color: vars.color.text, boxShadow: `inset 0 -2px 0 ${vars.color.accent}` } },
});
export const tabPanel = style({ paddingTop: vars.space.md });
export const pre = style({
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
  fontSize: vars.fontSize.sm,
  background: vars.color.surface,
  padding: vars.space.sm,
  borderRadius: vars.radius.sm,
});
export const item = style({ borderBottom: `1px solid ${vars.color.border}`, padding: `${vars.space.sm} 0` });
export const itemName = style({ cursor: 'pointer', fontWeight: 600 });
export const subheading = style({ fontSize: vars.fontSize.sm, margin: `${vars.space.sm} 0 0` });
export const badge = style({
  marginLeft: vars.space.sm,
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.full,
  border: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.sm,
  fontWeight: 400,
});
export const usage = style({ display: 'grid', gap: vars.space.xs, marginBottom: vars.space.md });
export const usageTrack = style({
  height: '8px',
  borderRadius: vars.radius.full,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  overflow: 'hidden',
});
export const usageFill = style({ height: '100%', background: vars.color.accent });
export const usageFillWarning = style({ height: '100%', background: vars.color.danger });

export const forks = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xs,
  paddingLeft: vars.space.md,
});
