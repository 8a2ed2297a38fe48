import { style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

/** The scrolling list of a conversation's messages. */
export const messageList = style({
  flex: 1,
  minHeight: 0,
  overflowY: 'auto',
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  padding: vars.space.sm,
});

// A conversation's messages (the DevOps tab's, the onboarding chat's): the user's on the right, the agent's on the left.
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
export const failureMessage = style({ ...bubble, alignSelf: 'flex-start', color: vars.color.danger });
