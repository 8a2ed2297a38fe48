import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export { heading, page } from '../../ui/page.css.ts';
export const muted = style({ color: vars.color.textMuted, margin: 0 });
export const toolbar = style({ display: 'flex', alignItems: 'flex-end', gap: vars.space.md, flexWrap: 'wrap' });
export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' });
export const repository = style({ borderBottom: `1px solid ${vars.color.border}`, padding: `${vars.space.sm} 0` });
export const repositoryName = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xs,
  cursor: 'pointer',
  fontWeight: 600,
});
export const microagents = style({ paddingLeft: vars.space.lg });
