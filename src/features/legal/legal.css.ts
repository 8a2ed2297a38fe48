import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const page = style({ maxWidth: '720px', margin: '0 auto', lineHeight: 1.6 });
export const heading = style({ fontSize: vars.fontSize.lg, marginTop: vars.space.xl });
