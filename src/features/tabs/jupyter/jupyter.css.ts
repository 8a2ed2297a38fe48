import { globalStyle, style } from '@vanilla-extract/css';

/** Python highlighting: the class names @lezer/highlight's classHighlighter gives tokens. */
export const highlighted = style({});
const colours: Record<string, string> = {
  'tok-keyword': '#8250df',
  'tok-string': '#0a7f3f',
  'tok-number': '#b35900',
  'tok-comment': '#6e7781',
  'tok-variableName2': '#0550ae',
  'tok-propertyName': '#0550ae',
  'tok-typeName': '#953800',
  'tok-bool': '#b35900',
  'tok-operator': '#cf222e',
};
for (const [token, colour] of Object.entries(colours)) globalStyle(`${highlighted} .${token}`, { color: colour });
