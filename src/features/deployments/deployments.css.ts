import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';
import * as tables from '../../ui/table.css.ts';

export const total = style({ margin: 0, fontWeight: 600 });
export const muted = style({ margin: 0, color: vars.color.textMuted });
export const error = style({ margin: 0, color: vars.color.danger });
export const scroller = style({ overflowX: 'auto' });
export const table = style([tables.table, { fontVariantNumeric: 'tabular-nums' }]);
export { cell } from '../../ui/table.css.ts';
export const empty = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, textAlign: 'center' });
