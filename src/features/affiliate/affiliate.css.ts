import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';
import * as tables from '../../ui/table.css.ts';

const width = { width: '100%', maxWidth: '1080px', marginInline: 'auto', paddingInline: vars.space.xl } as const;

export const page = style({ minHeight: '100vh', display: 'flex', flexDirection: 'column' });

export const header = style({
  position: 'sticky',
  top: 0,
  zIndex: 10,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.lg,
  padding: `${vars.space.sm} ${vars.space.xl}`,
  borderBottom: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  flexWrap: 'wrap',
});
export const brand = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.md,
  color: vars.color.text,
  fontWeight: 700,
  textDecoration: 'none',
});
export const headerLabel = style({ fontSize: vars.fontSize.sm, letterSpacing: '0.08em', color: vars.color.textMuted });
export const headerActions = style({ display: 'flex', gap: vars.space.sm, alignItems: 'center' });

export const main = style({
  flex: 1,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xl,
  paddingBlock: vars.space.xl,
});
export const section = style({ ...width, display: 'flex', flexDirection: 'column', gap: vars.space.lg });
export const hero = style({
  ...width,
  textAlign: 'center',
  paddingBlock: '48px',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: vars.space.lg,
});
export const heroTitle = style({ fontSize: 'clamp(1.75rem, 4vw, 2.75rem)', lineHeight: 1.2 });
export const lead = style({ maxWidth: '720px', color: vars.color.textMuted });
export const heading = style({ fontSize: vars.fontSize.xl });
export const grid = style({
  listStyle: 'none',
  padding: 0,
  margin: 0,
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))',
  gap: vars.space.lg,
});
export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  padding: vars.space.lg,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xs,
});
export const cardTitle = style({ fontSize: vars.fontSize.md, fontWeight: 600 });
export const figure = style({ fontSize: vars.fontSize.xl, fontWeight: 700, fontVariantNumeric: 'tabular-nums' });
export const muted = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm });
export const offer = style([card, { borderColor: vars.color.accent }]);

export const form = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.md,
  maxWidth: '560px',
  width: '100%',
});
export const formRow = style({ display: 'flex', gap: vars.space.sm, alignItems: 'flex-end' });
globalStyle(`${formRow} > :last-child`, { flex: 1 });
export const select = style({
  font: 'inherit',
  minHeight: '40px',
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
  maxWidth: '220px',
});
export const label = style({ fontSize: vars.fontSize.sm, fontWeight: 600 });
export const stack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs });
export const notice = style({ color: vars.color.danger, fontSize: vars.fontSize.sm, margin: 0 });
export const success = style({ color: vars.color.success, fontSize: vars.fontSize.sm, margin: 0 });
export const buttons = style({
  display: 'flex',
  justifyContent: 'flex-end',
  gap: vars.space.sm,
  marginTop: vars.space.md,
});

export const progress = style({
  height: '10px',
  borderRadius: vars.radius.full,
  background: vars.color.surfaceHover,
  overflow: 'hidden',
});
export const progressFill = style({ height: '100%', background: vars.color.accent });
export const sectionHeader = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.md,
  flexWrap: 'wrap',
});

export const tableWrap = style({
  overflowX: 'auto',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
});
export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: vars.fontSize.sm });
globalStyle(`${table} th, ${table} td`, {
  textAlign: 'left',
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: 'middle',
});
globalStyle(`${table} th`, { background: vars.color.surface, fontWeight: 600 });
export const numeric = style({ textAlign: 'right', fontVariantNumeric: 'tabular-nums' });
// Who registered through a link: five columns that fit a phone, long names and addresses broken.
export const peopleTable = style([tables.table, { fontSize: vars.fontSize.sm }]);
export const peopleCell = style([tables.cell, { padding: `${vars.space.xs} ${vars.space.sm}` }]);
export const rowActions = style({ display: 'flex', gap: vars.space.xs, flexWrap: 'wrap' });
export const linkCell = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm });
export const inlineInput = style({
  font: 'inherit',
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
});
export const empty = style({ padding: vars.space.xl, textAlign: 'center', color: vars.color.textMuted });

export const tabs = style({ display: 'flex', gap: vars.space.xs, borderBottom: `1px solid ${vars.color.border}` });
export const tab = style({
  font: 'inherit',
  border: 0,
  background: 'transparent',
  color: vars.color.textMuted,
  padding: `${vars.space.sm} ${vars.space.md}`,
  cursor: 'pointer',
  borderBottom: '2px solid transparent',
  selectors: { '&[aria-selected="true"]': { color: vars.color.text, borderBottomColor: vars.color.accent } },
});

export const footer = style({
  ...width,
  paddingBlock: vars.space.xl,
  borderTop: `1px solid ${vars.color.border}`,
  display: 'flex',
  gap: vars.space.lg,
  flexWrap: 'wrap',
  fontSize: vars.fontSize.sm,
  color: vars.color.textMuted,
});
export const fieldset = style([stack, { border: 0, padding: 0, margin: 0 }]);
