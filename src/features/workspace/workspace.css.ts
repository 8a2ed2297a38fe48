import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const workspace = style({ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' });

export const menuBar = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.xs,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderBottom: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  flexWrap: 'wrap',
});

// A narrow screen gives the title a row of its own and the menus the row below (wrapping), so
// neither is cut off.
export const title = style({
  marginRight: 'auto',
  minWidth: 0,
  display: 'flex',
  alignItems: 'center',
  '@media': { '(max-width: 767px)': { flexBasis: '100%' } },
});

export const titleButton = style({
  border: 'none',
  background: 'transparent',
  color: vars.color.text,
  font: 'inherit',
  fontWeight: 700,
  cursor: 'text',
  padding: vars.space.xs,
  // WCAG 2.2 target size, also for a short title.
  minWidth: '24px',
  minHeight: '24px',
  borderRadius: vars.radius.sm,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  selectors: { '&:hover': { background: vars.color.surfaceHover } },
});

export const titleInput = style({
  font: 'inherit',
  fontWeight: 700,
  padding: vars.space.xs,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.background,
  color: vars.color.text,
});

// Its own stacking context: flexlayout's raised parts (splitters, floating tiles) stay under dialogs and menus.
export const layoutArea = style({ position: 'relative', flex: 1, minHeight: 0, isolation: 'isolate' });

export const tile = style({ width: '100%', height: '100%' });

// Placed like flexlayout places a tile: the area's height is the list's, not its rows'.
export const firstFrameChat = style({ position: 'absolute', top: 0, bottom: 0, left: 0, minWidth: 'min(320px, 100%)' });

export const framed = style({ position: 'absolute', overflow: 'hidden', display: 'flex', flexDirection: 'column' });

export const centred = style({
  margin: 'auto',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: vars.space.md,
});

// flexlayout measures with an off-screen element holding the text 'FindBorderBarSize': hidden, it still measures,
// but is no longer page text or read out.
globalStyle(`${layoutArea} .flexlayout__layout_metrics`, { visibility: 'hidden' });

// flexlayout reads its colours from --flexlayout-* variables on its own root element.
globalStyle(`${layoutArea} .flexlayout__layout`, {
  vars: {
    '--flexlayout-color-text': vars.color.text,
    '--flexlayout-color-background': vars.color.background,
    '--flexlayout-color-base': vars.color.background,
    '--flexlayout-color-1': vars.color.surface,
    '--flexlayout-color-2': vars.color.surface,
    '--flexlayout-color-3': vars.color.surfaceHover,
    '--flexlayout-color-4': vars.color.border,
    '--flexlayout-color-5': vars.color.border,
    '--flexlayout-color-6': vars.color.textMuted,
    '--flexlayout-color-focus': vars.color.focusRing,
    '--flexlayout-color-tab-selected': vars.color.text,
    '--flexlayout-color-tab-selected-background': vars.color.background,
    '--flexlayout-color-tab-unselected': vars.color.textMuted,
    '--flexlayout-color-tabset-background': vars.color.surface,
    '--flexlayout-color-tab-content': vars.color.background,
    '--flexlayout-color-splitter': vars.color.surface,
    '--flexlayout-color-splitter-hover': vars.color.border,
    '--flexlayout-color-drag1': vars.color.accent,
    '--flexlayout-color-icon': vars.color.textMuted,
    '--flexlayout-font-family': vars.font.body,
    '--flexlayout-font-size': vars.fontSize.sm,
  },
});

export const dialogForm = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });
export const dialogButtons = style({ display: 'flex', justifyContent: 'flex-end', gap: vars.space.sm });

// A menu item with a note under its label (why it is unavailable).
export const itemText = style({ display: 'flex', flexDirection: 'column', gap: '2px' });
export const itemNote = style({ fontSize: '0.75rem', color: vars.color.textMuted, maxWidth: '260px' });

export const featureList = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xs,
});
export const featureRow = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.md,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
});

// The status is written out; the coloured edge only repeats it.
const badge = style({
  flexShrink: 0,
  padding: `2px ${vars.space.sm}`,
  borderRadius: vars.radius.full,
  border: `1px solid ${vars.color.border}`,
  borderLeftWidth: '4px',
  fontSize: vars.fontSize.sm,
  color: vars.color.text,
  background: vars.color.background,
});
export const statusBadge = styleVariants({
  warning: [badge, { borderLeftColor: '#b45309' }],
  completed: [badge, { borderLeftColor: '#15803d' }],
  error: [badge, { borderLeftColor: vars.color.danger }],
  pending: [badge, { borderLeftColor: vars.color.textMuted }],
});

export const shortcuts = style({
  width: '100%',
  borderCollapse: 'collapse',
  textAlign: 'left',
});
globalStyle(`${shortcuts} th, ${shortcuts} td`, { padding: `${vars.space.xs} ${vars.space.sm}` });
