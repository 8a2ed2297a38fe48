import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';
import * as tables from '../../ui/table.css.ts';

export const page = style({
  width: '100%',
  maxWidth: '880px',
  margin: '0 auto',
  padding: vars.space.lg,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xl,
});

export const identity = style({ display: 'flex', alignItems: 'center', gap: vars.space.md });

export const identityText = style({ display: 'flex', flexDirection: 'column', minWidth: 0 });

export const muted = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm, margin: 0 });

export const section = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });

export const heading = style({ margin: 0, fontSize: vars.fontSize.lg });

export const table = style([tables.table, { fontSize: vars.fontSize.sm }]);

export const cell = style([tables.cell, { padding: `${vars.space.xs} ${vars.space.sm}` }]);

export const amount = style([cell, { textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }]);

export const status = styleVariants({
  completed: { color: vars.color.success, fontWeight: 600 },
  pending: { color: vars.color.warning, fontWeight: 600 },
  failed: { color: vars.color.danger, fontWeight: 600 },
});

export const group = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  padding: vars.space.sm,
});

export const groupSummary = style({
  cursor: 'pointer',
  display: 'flex',
  justifyContent: 'space-between',
  gap: vars.space.md,
});

export const bucket = style({ marginTop: vars.space.sm, paddingLeft: vars.space.md });

export const pager = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm });

export const balanceRow = style({ display: 'flex', alignItems: 'center', gap: vars.space.md, flexWrap: 'wrap' });

export const dialogForm = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });

export const taxes = style({ display: 'flex', justifyContent: 'space-between', fontSize: vars.fontSize.sm });

export const failure = style({ color: vars.color.danger, fontSize: vars.fontSize.sm, margin: 0 });

export const profileForm = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md, maxWidth: '420px' });
