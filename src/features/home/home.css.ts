import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const heading = style({ margin: 'auto', fontSize: vars.fontSize.xl, fontWeight: 700, textAlign: 'center' });
