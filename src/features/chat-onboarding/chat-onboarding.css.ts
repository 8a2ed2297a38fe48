import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';
import { messageList } from '../../ui/message-bubble.css.ts';

export const page = style({
  display: 'flex',
  flexDirection: 'column',
  width: '100%',
  maxWidth: '760px',
  height: '100%',
  minHeight: 0,
  margin: '0 auto',
  padding: vars.space.md,
  gap: vars.space.sm,
});
export const title = style({ margin: 0, fontSize: vars.fontSize.lg });
export const messages = style([
  messageList,
  { border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.lg },
]);
export const choices = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs, marginTop: vars.space.sm });
export const panel = style({
  alignSelf: 'stretch',
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
});
export const panelHeading = style({ margin: 0, fontSize: vars.fontSize.md });
export const actions = style({ display: 'flex', gap: vars.space.sm, justifyContent: 'flex-end' });
export const status = style({ fontSize: vars.fontSize.sm, color: vars.color.textMuted });
export const notice = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  color: vars.color.danger,
  border: `1px solid ${vars.color.danger}`,
});
export const form = style({ display: 'flex', alignItems: 'flex-end', gap: vars.space.sm });
export const fileList = style({ margin: 0, paddingLeft: vars.space.lg, fontSize: vars.fontSize.sm });
