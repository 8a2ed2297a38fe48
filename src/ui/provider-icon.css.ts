import { style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

export const icon = style({ width: '16px', height: '16px', flexShrink: 0, fill: vars.color.textMuted });
