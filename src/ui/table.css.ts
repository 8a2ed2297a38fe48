import { style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

// The tables of settings, the profile and the dialogs: as wide as their container and no wider,
// long words (names, ids, addresses) broken where needed, so no page or dialog scrolls sideways.

export const table = style({ width: '100%', borderCollapse: 'collapse' });

export const cell = style({
  textAlign: 'left',
  padding: vars.space.sm,
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: 'top',
  overflowWrap: 'anywhere',
});
