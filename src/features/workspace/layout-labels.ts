/** flexlayout's own labels (buttons, menus, splitters) shown in this workspace, by their keys in the conversations namespace. */
export const LAYOUT_CONTROL_LABELS = {
  'flexlayout.ui.close.tab': 'closeTab',
  'flexlayout.ui.close.tabset': 'closeTabSet',
  'flexlayout.ui.active.tabset': 'activeTabSet',
  'flexlayout.ui.maximize.tabset': 'maximise',
  'flexlayout.ui.restore.tabset': 'restore',
  'flexlayout.ui.popout.tab.float': 'popOut',
  'flexlayout.ui.dock.float.to.layout': 'dock',
  'flexlayout.ui.overflow.menu.tooltip': 'moreTabs',
  'flexlayout.ui.splitter': 'splitter',
  'flexlayout.ui.error.rendering.component': 'tabFailed',
  'flexlayout.ui.error.rendering.component.retry': 'retry',
} as const;

type LayoutControlLabel = (typeof LAYOUT_CONTROL_LABELS)[keyof typeof LAYOUT_CONTROL_LABELS];

/**
 * What flexlayout's translator hook looks up for a string: a tab name (an i18n key of the
 * workspace namespace, as the layout machine names tabs), one of its own labels, or nothing
 * (flexlayout then keeps its English default).
 */
export function layoutString(key: string): { tabName: `tabs.${string}` } | { control: LayoutControlLabel } | null {
  if (key.startsWith('tabs.')) return { tabName: key as `tabs.${string}` };
  const control = (LAYOUT_CONTROL_LABELS as Record<string, LayoutControlLabel>)[key];
  return control ? { control } : null;
}
