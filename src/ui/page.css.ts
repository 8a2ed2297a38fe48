import { style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

/** A signed-in page's column (settings, microagent management). */
export const page = style({
  flex: 1,
  width: '100%',
  maxWidth: '880px',
  margin: '0 auto',
  padding: vars.space.xl,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.lg,
});
export const heading = style({ fontSize: vars.fontSize.xl, fontWeight: 700, margin: 0 });
