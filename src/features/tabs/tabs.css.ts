import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

const mono = 'ui-monospace, SFMono-Regular, Menlo, monospace';

export const tab = style({
  display: 'flex',
  flexDirection: 'column',
  height: '100%',
  minHeight: 0,
  background: vars.color.background,
  color: vars.color.text,
});
// The address keeps room to be read; the buttons wrap below it in a narrow tile.
export const bar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  padding: vars.space.sm,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const address = style({
  flex: '1 1 12rem',
  minWidth: 0,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  font: 'inherit',
  fontSize: vars.fontSize.sm,
  color: vars.color.text,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
});
export const body = style({ flex: 1, minHeight: 0, overflow: 'auto' });
export const frame = style({ flex: 1, width: '100%', border: 'none', background: '#ffffff' });
export const message = style({ padding: vars.space.lg, color: vars.color.textMuted, textAlign: 'center' });
export const errorText = style({ padding: vars.space.lg, color: vars.color.danger, whiteSpace: 'pre-wrap' });
export const screenshot = style({ display: 'block', maxWidth: '100%', margin: '0 auto' });

export const fileList = style({
  listStyle: 'none',
  margin: 0,
  padding: vars.space.sm,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
});
export const fileSummary = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  cursor: 'pointer',
  padding: vars.space.xs,
  fontFamily: mono,
  fontSize: vars.fontSize.sm,
});
export const status = style({
  fontSize: '0.75rem',
  padding: '0 6px',
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
  fontFamily: 'inherit',
});
export const diff = style({ border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.sm, overflow: 'auto' });

export const cell = style({
  margin: vars.space.sm,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
});
export const cellLabel = style({
  fontSize: '0.75rem',
  color: vars.color.textMuted,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const code = style({
  margin: 0,
  padding: vars.space.sm,
  fontFamily: mono,
  fontSize: '0.85rem',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
});
export const outputImage = style({ maxWidth: '100%', display: 'block', padding: vars.space.sm });

export const terminal = style({ flex: 1, minHeight: 0, padding: vars.space.xs, background: '#1e1e1e' });

export const editor = style({ display: 'flex', flex: 1, minHeight: 0 });
export const tree = style({
  width: '30%',
  minWidth: '120px',
  maxWidth: '240px',
  flexShrink: 0,
  overflow: 'auto',
  borderRight: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.sm,
});
export const treeList = style({ listStyle: 'none', margin: 0, paddingLeft: vars.space.md });
export const treeItem = style({
  display: 'block',
  width: '100%',
  textAlign: 'left',
  background: 'none',
  border: 'none',
  color: 'inherit',
  font: 'inherit',
  padding: `2px ${vars.space.xs}`,
  cursor: 'pointer',
  selectors: {
    '&:hover': { background: vars.color.surfaceHover },
    '&[aria-current="true"]': { background: vars.color.surface, fontWeight: 600 },
  },
});
export const editorPane = style({ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' });
export const fileTabs = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  gap: '2px',
  borderBottom: `1px solid ${vars.color.border}`,
  overflowX: 'auto',
});
export const fileTab = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.xs,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  fontSize: vars.fontSize.sm,
  borderRight: `1px solid ${vars.color.border}`,
});
export const codeMirrorHost = style({ flex: 1, minHeight: 0, overflow: 'auto' });
export const warning = style({
  padding: vars.space.sm,
  fontSize: vars.fontSize.sm,
  color: vars.color.textMuted,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const terminalViews = style({ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 });
export const terminalBar = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.xs,
  borderBottom: `1px solid ${vars.color.border}`,
  minWidth: 0,
});
export const terminalList = style({ display: 'flex', flex: 1, minWidth: 0, overflowX: 'auto' });
export const terminalTrigger = style({
  padding: `${vars.space.xs} ${vars.space.sm}`,
  font: 'inherit',
  fontSize: vars.fontSize.sm,
  whiteSpace: 'nowrap',
  color: vars.color.textMuted,
  background: 'transparent',
  border: 'none',
  borderBottom: '2px solid transparent',
  cursor: 'pointer',
  selectors: { '&[data-state="active"]': { color: vars.color.text, borderBottomColor: vars.color.accent } },
});
export const terminalContent = style({
  display: 'flex',
  flexDirection: 'column',
  flex: 1,
  minHeight: 0,
  selectors: { '&[hidden]': { display: 'none' } },
});
export const stoppedApps = style({
  listStyle: 'none',
  margin: `${vars.space.sm} 0`,
  padding: 0,
  overflowWrap: 'anywhere',
  fontFamily: mono,
  fontSize: vars.fontSize.sm,
});
