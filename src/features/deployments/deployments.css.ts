import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const total = style({ margin: 0, fontWeight: 600 });
export const muted = style({ margin: 0, color: vars.color.textMuted });
export const error = style({ margin: 0, color: vars.color.danger });
export const scroller = style({ overflowX: 'auto' });
export const table = style({ width: '100%', borderCollapse: 'collapse', fontVariantNumeric: 'tabular-nums' });
export const cell = style({
  textAlign: 'left',
  padding: vars.space.sm,
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: 'nowrap',
});
export const empty = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, textAlign: 'center' });
