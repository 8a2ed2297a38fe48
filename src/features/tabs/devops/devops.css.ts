import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

export const messages = style({
  flex: 1,
  minHeight: 0,
  overflowY: 'auto',
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  padding: vars.space.sm,
});
const bubble = {
  maxWidth: '90%',
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  overflowWrap: 'anywhere',
} as const;
export const userMessage = style({
  ...bubble,
  alignSelf: 'flex-end',
  whiteSpace: 'pre-wrap',
  background: vars.color.surface,
});
export const agentMessage = style({ ...bubble, alignSelf: 'flex-start', border: `1px solid ${vars.color.border}` });
export const failure = style({ ...bubble, alignSelf: 'flex-start', color: vars.color.danger });
export const status = style({ padding: `0 ${vars.space.sm}`, fontSize: vars.fontSize.sm, color: vars.color.textMuted });
export const banner = style({
  margin: vars.space.sm,
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  fontSize: vars.fontSize.sm,
});
export const form = style({
  display: 'flex',
  alignItems: 'flex-end',
  gap: vars.space.sm,
  padding: vars.space.sm,
  borderTop: `1px solid ${vars.color.border}`,
});
export const files = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs, padding: `0 ${vars.space.sm}` });
export const hiddenInput = style({ display: 'none' });
