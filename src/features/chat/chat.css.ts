import { style, styleVariants } from '@vanilla-extract/css';
import { messageTextarea } from '../../ui/message-input.css.ts';
import { vars } from '../../styles/theme.css.ts';

export const panel = style({
  position: 'relative',
  display: 'flex',
  flexDirection: 'column',
  height: '100%',
  minHeight: 0,
  background: vars.color.background,
  color: vars.color.text,
});

export const statusBar = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  padding: `${vars.space.xs} ${vars.space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.sm,
});

export const dot = style({ width: '10px', height: '10px', borderRadius: vars.radius.full, flexShrink: 0 });
export const dotColour = styleVariants({
  red: { background: '#e5484d' },
  yellow: { background: '#f5c518' },
  orange: { background: '#f76b15' },
  blue: { background: '#3e63dd' },
  green: { background: '#30a46c' },
});

export const toolbar = style({
  display: 'flex',
  justifyContent: 'flex-end',
  gap: vars.space.sm,
  padding: `${vars.space.xs} ${vars.space.md}`,
});

export const scroller = style({
  flex: 1,
  minHeight: 0,
  overflowY: 'auto',
  position: 'relative',
  padding: `0 ${vars.space.md}`,
  // The virtualiser keeps the reader's place itself; the browser's anchoring would move it a second time.
  overflowAnchor: 'none',
});
export const virtualBody = style({ position: 'relative', width: '100%' });
export const virtualRow = style({ position: 'absolute', top: 0, left: 0, width: '100%', paddingBottom: vars.space.sm });

export const centred = style({
  padding: vars.space.md,
  textAlign: 'center',
  color: vars.color.textMuted,
  fontSize: vars.fontSize.sm,
});
/** Over the first rows, without taking room from them. */
export const loadingOlder = style({ position: 'sticky', top: 0, height: 0, zIndex: 1 });
export const loadingOlderNote = style([centred, { background: vars.color.background }]);

const bubbleBase = style({
  maxWidth: '80%',
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.lg,
  overflowWrap: 'anywhere',
});
export const bubble = styleVariants({
  user: [bubbleBase, { marginLeft: 'auto', background: vars.color.accent, color: vars.color.onAccent }],
  agent: [bubbleBase, { background: vars.color.surface }],
});
export const pending = style({ opacity: 0.7 });
export const images = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs, marginTop: vars.space.xs });
export const thumbnail = style({ maxWidth: '160px', maxHeight: '120px', borderRadius: vars.radius.sm });
export const outputImage = style({ maxWidth: '100%', background: '#ffffff', borderRadius: vars.radius.sm });

export const step = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  fontSize: vars.fontSize.sm,
});
export const stepSummary = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, cursor: 'pointer' });
export const stepTitle = style({
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
  overflowWrap: 'anywhere',
});
export const output = style({
  margin: `${vars.space.xs} 0 0`,
  padding: vars.space.sm,
  background: vars.color.surface,
  borderRadius: vars.radius.sm,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
  fontSize: '0.8rem',
  maxHeight: '400px',
  overflowY: 'auto',
});
export const cutNote = style({
  display: 'block',
  color: vars.color.textMuted,
  fontStyle: 'italic',
  margin: `${vars.space.xs} 0`,
});
export const result = styleVariants({
  success: { color: '#30a46c' },
  error: { color: vars.color.danger },
  timeout: { color: '#f76b15' },
  rejected: { color: vars.color.textMuted },
});
/** What a step's title leaves out, beside it: the exit code, the risk, the user's decision. */
export const stepFact = style({
  marginInlineStart: vars.space.xs,
  padding: `0 ${vars.space.xs}`,
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.sm,
  whiteSpace: 'nowrap',
});
export const screenshot = style({
  maxWidth: '100%',
  marginTop: vars.space.xs,
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.border}`,
});
export const errorBlock = style({
  border: `1px solid ${vars.color.danger}`,
  borderRadius: vars.radius.md,
  padding: vars.space.sm,
  color: vars.color.danger,
  fontSize: vars.fontSize.sm,
});
export const rowActions = style({ display: 'flex', gap: vars.space.sm, marginTop: vars.space.sm, flexWrap: 'wrap' });

export const row = style({ position: 'relative', borderRadius: vars.radius.sm });
/** Over the row's top right corner, shown while the row is hovered or holds the focus: rows keep their height. */
export const rowTools = style({
  position: 'absolute',
  top: 0,
  right: 0,
  display: 'flex',
  gap: vars.space.xs,
  background: vars.color.surface,
  borderRadius: vars.radius.sm,
  opacity: 0,
  selectors: { [`${row}:hover &, ${row}:focus-within &`]: { opacity: 1 } },
});
/** Over the top left corner, beside the user's message (which leaves a fifth of the row free there). */
export const rowToolsStart = style({ right: 'auto', left: 0 });
export const editForm = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs });

export const typing = style({
  padding: `${vars.space.xs} ${vars.space.md}`,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.sm,
});
export const scrollToBottom = style({
  position: 'absolute',
  right: vars.space.lg,
  bottom: '140px',
  zIndex: 2,
  boxShadow: vars.shadow.raised,
});

export const footer = style({
  borderTop: `1px solid ${vars.color.border}`,
  padding: vars.space.md,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
});
export const suggestions = style({ display: 'flex', gap: vars.space.sm, flexWrap: 'wrap' });
export const banner = style({
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  fontSize: vars.fontSize.sm,
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
});
export const dangerBanner = style([banner, { color: vars.color.danger, border: `1px solid ${vars.color.danger}` }]);
export const progressBar = style({ flex: 1 });
export const inputRow = style({ display: 'flex', alignItems: 'flex-end', gap: vars.space.sm });
export const fixedButton = style({ flexShrink: 0 });
export const hiddenInput = style({ display: 'none' });

export const dropOverlay = style({
  position: 'absolute',
  inset: 0,
  zIndex: 3,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  background: vars.color.overlay,
  color: '#ffffff',
  fontSize: vars.fontSize.lg,
  border: `3px dashed ${vars.color.accent}`,
  pointerEvents: 'none',
});

export const stars = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.xs,
  marginTop: vars.space.xs,
  fontSize: vars.fontSize.sm,
  flexWrap: 'wrap',
});
// WCAG 2.2 target size: each star is a tap target of its own.
export const star = style({
  background: 'none',
  border: 'none',
  padding: '2px',
  minWidth: '24px',
  minHeight: '24px',
  cursor: 'pointer',
  fontSize: '1.1rem',
  color: vars.color.textMuted,
  selectors: { '&:disabled': { cursor: 'default' } },
});
export const starFilled = style({ color: '#f5a524' });

export const launchForm = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });
export const queryBox = style([messageTextarea, { minHeight: '120px', maxHeight: '240px', resize: 'vertical' }]);
export const triggerList = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.xs,
  margin: 0,
  padding: 0,
  listStyle: 'none',
});
export const trigger = style({
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.full,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.sm,
});
export const launchTask = style({
  display: 'flex',
  gap: vars.space.sm,
  fontSize: vars.fontSize.sm,
  marginTop: vars.space.xs,
});
