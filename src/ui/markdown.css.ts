import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

export const markdown = style({});
globalStyle(`${markdown} p`, { margin: 0 });
globalStyle(`${markdown} p + p`, { marginTop: vars.space.sm });
globalStyle(`${markdown} pre`, { overflowX: 'auto' });
/** A message before the markdown renderer has loaded. */
export const plainText = style({ whiteSpace: 'pre-wrap' });
/** The button standing in for a message's image until the reader loads it. */
export const imagePlaceholder = style({
  font: 'inherit',
  color: vars.color.accent,
  background: 'none',
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  padding: `0 ${vars.space.xs}`,
  cursor: 'pointer',
  maxWidth: '100%',
  overflowWrap: 'anywhere',
  textAlign: 'start',
});
