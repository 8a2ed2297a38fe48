import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export { heading, page } from '../../ui/page.css.ts';
export const tabs = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.xs,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const tab = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  color: vars.color.textMuted,
  textDecoration: 'none',
  selectors: {
    '&[aria-current="page"]': { color: vars.color.text, boxShadow: `inset 0 -2px 0 ${vars.color.accent}` },
    '&:hover': { color: vars.color.text },
  },
});
export const section = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });
export const sectionHeading = style({ fontSize: vars.fontSize.lg, fontWeight: 600, margin: 0 });
export const muted = style({ color: vars.color.textMuted, margin: 0 });
export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md, maxWidth: '560px' });
export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center' });
export const dialogButtons = style({ display: 'flex', justifyContent: 'flex-end', gap: vars.space.sm });
export { table, cell } from '../../ui/table.css.ts';
export const code = style({ fontFamily: 'ui-monospace, monospace', fontSize: vars.fontSize.sm });
export const error = style({ color: vars.color.danger, margin: 0 });
export const editor = style({
  fontFamily: 'ui-monospace, monospace',
  fontSize: vars.fontSize.sm,
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
export const testResult = style({ minHeight: '1.5em', overflowWrap: 'anywhere' });
export const card = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.md,
  padding: vars.space.lg,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  maxWidth: '560px',
});
