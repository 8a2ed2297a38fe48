import { keyframes, style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

// The shell's main area pads its pages; the sidebar layout takes its whole area instead.
export const layout = style({
  flex: 1,
  display: 'flex',
  minHeight: 0,
  margin: `calc(-1 * ${vars.space.xl})`,
  position: 'relative',
});

const sidebarBase = {
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  padding: vars.space.sm,
  borderRight: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  flexShrink: 0,
} as const;

export const sidebar = style({ ...sidebarBase, width: '280px' });

// A narrow screen: a bar with the menu button above the page, the sidebar a drawer over it.
export const layoutNarrow = style({
  flex: 1,
  display: 'flex',
  flexDirection: 'column',
  minHeight: 0,
  margin: `calc(-1 * ${vars.space.xl})`,
});
export const drawerBar = style({
  display: 'flex',
  alignItems: 'center',
  padding: vars.space.xs,
  borderBottom: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
});
export const drawer = style({
  ...sidebarBase,
  position: 'fixed',
  insetBlock: 0,
  left: 0,
  width: 'min(280px, 85vw)',
  zIndex: 30,
  boxShadow: vars.shadow.raised,
});
export const backdrop = style({
  position: 'fixed',
  inset: 0,
  zIndex: 29,
  border: 'none',
  background: 'rgb(0 0 0 / 0.35)',
  cursor: 'default',
});
// Beside the sidebar the conversation list takes 350 px; where that leaves the page too little
// room (a workspace needs the chat and a tile), it lies over the page where it would stand
// (an absolute box keeps its place in the row), instead of squeezing it.
export const panelBeside = style({
  display: 'flex',
  flexShrink: 0,
  '@media': {
    '(max-width: 1199px)': {
      position: 'absolute',
      insetBlock: 0,
      zIndex: 20,
      background: vars.color.background,
      boxShadow: vars.shadow.raised,
    },
  },
});
export const panelOverDrawer = style({
  position: 'fixed',
  insetBlock: 0,
  left: 'min(280px, 85vw)',
  right: 0,
  zIndex: 30,
  display: 'flex',
  background: vars.color.background,
});
/** 16 units of 4 px. */
export const sidebarCollapsed = style({ ...sidebarBase, width: '64px', alignItems: 'center' });

export const page = style({ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' });

export const panel = style({
  width: '350px',
  flexShrink: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  padding: vars.space.sm,
  borderRight: `1px solid ${vars.color.border}`,
  overflowY: 'auto',
});

export const panelTitle = style({ fontSize: vars.fontSize.md, fontWeight: 700, margin: `${vars.space.xs} 0` });

export const notice = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm });
export const error = style({ color: vars.color.danger, fontSize: vars.fontSize.sm });

export const cards = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
});

export const card = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xs,
  padding: vars.space.sm,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.background,
});

export const cardTop = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm });

export const cardTitle = style({
  flex: 1,
  minWidth: 0,
  color: vars.color.text,
  fontWeight: 600,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});

export const titleInput = style({
  flex: 1,
  minWidth: 0,
  font: 'inherit',
  padding: vars.space.xs,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.background,
  color: vars.color.text,
});

export const meta = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.sm,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.sm,
});

export const repository = style({ display: 'inline-flex', alignItems: 'center', gap: vars.space.xs });

export const badge = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xs,
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.full,
  border: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.sm,
});

const spin = keyframes({ to: { transform: 'rotate(360deg)' } });

export const statusIcon = style({
  display: 'inline-block',
  width: '8px',
  height: '8px',
  borderRadius: vars.radius.full,
});
export const running = style({ background: '#2e9d5b' });
export const stopped = style({ background: vars.color.textMuted });
export const starting = style({
  width: '10px',
  height: '10px',
  border: `2px solid ${vars.color.accent}`,
  borderTopColor: 'transparent',
  background: 'transparent',
  animation: `${spin} 0.9s linear infinite`,
  '@media': { '(prefers-reduced-motion: reduce)': { animationDuration: '3s' } },
});

/** A fork's line naming its original: a link back to it. */
export const forkOf = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm });
