import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

export const markdown = style({});
globalStyle(`${markdown} p`, { margin: 0 });
globalStyle(`${markdown} p + p`, { marginTop: vars.space.sm });
globalStyle(`${markdown} pre`, { overflowX: 'auto' });
/** A message before the markdown renderer has loaded. */
export const plainText = style({ whiteSpace: 'pre-wrap' });
