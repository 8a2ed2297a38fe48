import type { IJsonModel, IJsonRowNode, IJsonTabNode, IJsonTabSetNode } from 'flexlayout-react';

// The workspace layout as data: a flexlayout-react model in its JSON form (IJsonModel), so it
// can be stored as given (PUT /api/user/layouts/{name}) and handed to `Model.fromJson` by the
// view. The presets are the spec's. Opening a tab that is already open selects it; otherwise it
// is added on the right, as a new tab set at the end of the root row. A tab popped out into a
// browser window of its own is kept in the model's `subLayouts` (as flexlayout-react writes it).
//
// Tab names are i18n keys of the `workspace` namespace (tabs.chat, ...): the view translates
// them when it renders a tab button.

export const TAB_COMPONENTS = [
  'chat',
  'app',
  'vscode',
  'terminal',
  'jupyter',
  'browser',
  'changes',
  'devops-agent',
] as const;
export type TabComponent = (typeof TAB_COMPONENTS)[number];

export const PRESETS = ['default', 'pm', 'user', 'developer'] as const;
export type PresetName = (typeof PRESETS)[number];
export const SAVED_PREFIX = 'saved:';
/** A preset's name, or a saved layout's name behind the 'saved:' prefix. */
export type LayoutId = PresetName | `saved:${string}`;

export const INITIAL_LAYOUT: PresetName = 'pm';

/** The i18n key of a tab's name (the workspace namespace). */
export const tabNameKey = (component: TabComponent) =>
  `tabs.${component === 'devops-agent' ? 'devopsAgent' : component}` as const;

/**
 * Every tile keeps a usable size: flexlayout stops a splitter there rather than squeeze a tile
 * below it. The chat needs room for its message box and Send button.
 */
export const MIN_TILE = { width: 240, height: 160 };
export const CHAT_MIN_WIDTH = 320;

/** A tab of one of the components; its id is the component, since each appears at most once. */
export function tabOf(component: TabComponent): IJsonTabNode {
  const tab: IJsonTabNode = { type: 'tab', id: component, name: tabNameKey(component), component };
  return component === 'chat' ? { ...tab, minWidth: CHAT_MIN_WIDTH } : tab;
}

function tabSet(id: string, weight: number, components: TabComponent[]): IJsonTabSetNode {
  return { type: 'tabset', id, weight, selected: 0, children: components.map(tabOf) };
}

const GLOBAL: IJsonModel['global'] = {
  tabEnablePopout: true,
  tabSetEnableMaximize: true,
  tabEnableRename: false,
  tabMinWidth: MIN_TILE.width,
  tabMinHeight: MIN_TILE.height,
};

function model(children: IJsonTabSetNode[]): IJsonModel {
  return { global: { ...GLOBAL }, borders: [], layout: { type: 'row', id: 'root', weight: 100, children } };
}

/** The spec's presets: default (chat only), pm (chat 35 | web app + browser 65), user (web app only), developer (chat + DevOps agent 30 | web app, VS Code, browser 70). */
export function presetLayout(name: PresetName): IJsonModel {
  switch (name) {
    case 'default':
      return model([tabSet('main', 50, ['chat'])]);
    case 'pm':
      return model([tabSet('left', 35, ['chat']), tabSet('right', 65, ['app', 'browser'])]);
    case 'user':
      return model([tabSet('main', 100, ['app'])]);
    case 'developer':
      return model([tabSet('left', 30, ['chat', 'devops-agent']), tabSet('right', 70, ['app', 'vscode', 'browser'])]);
  }
}

export function isPreset(id: string): id is PresetName {
  return (PRESETS as readonly string[]).includes(id);
}

export function savedLayoutId(name: string): LayoutId {
  return `${SAVED_PREFIX}${name}`;
}

/** The saved layout's name, or null when the id names a preset. */
export function savedLayoutName(id: string): string | null {
  return id.startsWith(SAVED_PREFIX) ? id.slice(SAVED_PREFIX.length) : null;
}

type JsonNode = IJsonRowNode | IJsonTabSetNode;

function isTabSet(node: JsonNode): node is IJsonTabSetNode {
  return node.type === 'tabset';
}

const tabSetsBelow = (node: JsonNode): IJsonTabSetNode[] =>
  isTabSet(node) ? [node] : (node.children ?? []).flatMap(tabSetsBelow);

/** Every tab set of the model's layout (popouts aside), depth first from the left. */
export function tabSetsOf(layout: IJsonModel): IJsonTabSetNode[] {
  return tabSetsBelow(layout.layout);
}

const isTab = (child: NonNullable<IJsonTabSetNode['children']>[number]): child is IJsonTabNode =>
  child.type === undefined || child.type === 'tab';

const componentsOf = (sets: IJsonTabSetNode[]) =>
  sets.flatMap((set) => (set.children ?? []).filter(isTab).map((tab) => tab.component ?? ''));

/** The components of the open tabs of the layout itself (not popped out), from the left. */
export function openComponents(layout: IJsonModel): string[] {
  return componentsOf(tabSetsOf(layout));
}

/** The components of the tabs popped out into windows of their own. */
export function poppedOutComponents(layout: IJsonModel): string[] {
  return componentsOf(Object.values(layout.subLayouts ?? {}).flatMap((sub) => tabSetsBelow(sub.layout)));
}

/** A copy of the model with `update` applied to every tab set (others unchanged). */
function mapTabSets(layout: IJsonModel, update: (set: IJsonTabSetNode) => IJsonTabSetNode): IJsonModel {
  const walk = (node: JsonNode): JsonNode =>
    isTabSet(node) ? update(node) : { ...node, children: (node.children ?? []).map(walk) as IJsonRowNode['children'] };
  return { ...layout, layout: walk(layout.layout) as IJsonRowNode };
}

/**
 * Opens a tab: an open one is selected (and its tab set made active); otherwise it is added on
 * the right, as a tab of the rightmost tile (a new tile only when none is left), so opening tabs
 * never squeezes the others into ever narrower columns. The model given is not changed.
 */
export function openTab(layout: IJsonModel, component: TabComponent): IJsonModel {
  const holder = tabSetsOf(layout).find((set) =>
    (set.children ?? []).some((child) => isTab(child) && child.component === component),
  );
  if (holder) {
    return mapTabSets(layout, (set) => {
      const { active: _active, ...rest } = set;
      if (set !== holder) return rest;
      const selected = (set.children ?? []).findIndex((child) => isTab(child) && child.component === component);
      return { ...rest, selected, active: true };
    });
  }
  const rightmost = tabSetsOf(layout).at(-1);
  if (rightmost) {
    return mapTabSets(layout, (set) => {
      const { active: _active, ...rest } = set;
      if (set !== rightmost) return rest;
      const children = [...(set.children ?? []), tabOf(component)];
      return { ...rest, children, selected: children.length - 1, active: true };
    });
  }
  const root = layout.layout;
  const added: IJsonTabSetNode = { ...tabSet('added-1', 50, [component]), active: true };
  return { ...layout, layout: { ...root, children: [...(root.children ?? []), added] } };
}

/** The model with the tile minimums of this version, also for a layout saved before them. */
export function withMinimumSizes(layout: IJsonModel): IJsonModel {
  const sized = mapTabSets(layout, (set) => ({
    ...set,
    children: (set.children ?? []).map((child) =>
      isTab(child) && child.component === 'chat' ? { ...child, minWidth: CHAT_MIN_WIDTH } : child,
    ),
  }));
  return { ...sized, global: { ...layout.global, tabMinWidth: MIN_TILE.width, tabMinHeight: MIN_TILE.height } };
}

/** Maximises the tab set holding the component's tab, or restores it when it is the maximised one; at most one is maximised. */
export function toggleMaximised(layout: IJsonModel, component: TabComponent): IJsonModel {
  const holder = tabSetsOf(layout).find((set) =>
    (set.children ?? []).some((child) => isTab(child) && child.component === component),
  );
  if (!holder) return layout;
  const maximise = holder.maximized !== true;
  return mapTabSets(layout, ({ maximized: _maximized, ...rest }) =>
    rest.id === holder.id && maximise ? { ...rest, maximized: true } : rest,
  );
}

/** The component whose tab set is maximised, if any (its selected tab). */
export function maximisedComponent(layout: IJsonModel): string | null {
  const set = tabSetsOf(layout).find((candidate) => candidate.maximized === true);
  if (!set) return null;
  const tabs = (set.children ?? []).filter(isTab);
  return tabs[set.selected ?? 0]?.component ?? tabs[0]?.component ?? null;
}

/**
 * The chat's share of the width in the first frame, drawn before the layout's code has loaded:
 * when the chat is the shown tab of a tile in the top row (or of the maximised tile), that tile's
 * weight over the row's; null when the chat is not on screen at first.
 */
export function chatShare(layout: IJsonModel): number | null {
  const showsChat = (set: IJsonTabSetNode) => {
    const tabs = (set.children ?? []).filter(isTab);
    return (tabs[set.selected ?? 0] ?? tabs[0])?.component === 'chat';
  };
  const maximised = tabSetsOf(layout).find((set) => set.maximized === true);
  if (maximised) return showsChat(maximised) ? 1 : null;
  const row = layout.layout.children ?? [];
  const holder = row.find((child): child is IJsonTabSetNode => isTabSet(child) && showsChat(child));
  if (!holder) return null;
  const total = row.reduce((sum, child) => sum + (child.weight ?? 100), 0);
  return total > 0 ? (holder.weight ?? 100) / total : 1;
}

/** A layout name as it is saved: trimmed; null when nothing is left. */
export function layoutName(raw: string): string | null {
  const name = raw.trim();
  return name === '' ? null : name;
}

/**
 * The layout as one tile holding every open tab, for a narrow screen: one tile at a time, its tabs
 * as a strip; it shows the tab the active tile showed.
 */
export function singleTile(layout: IJsonModel): IJsonModel {
  const sets = tabSetsOf(layout);
  const tabs = sets.flatMap((set) => (set.children ?? []).filter(isTab));
  const active = sets.find((set) => set.active) ?? sets[0];
  const shown = active?.children?.filter(isTab)[active.selected ?? 0];
  const tile: IJsonTabSetNode = {
    type: 'tabset',
    id: 'single',
    weight: 100,
    selected: Math.max(0, shown ? tabs.indexOf(shown) : 0),
    active: true,
    children: tabs,
  };
  return { ...layout, layout: { type: 'row', id: 'root', weight: 100, children: tabs.length > 0 ? [tile] : [] } };
}

/** Room a splitter takes between two tiles. */
export const SPLITTER_PX = 8;

/**
 * The narrowest width the layout's tiles fit in at their minimums: a row (the root's horizontal,
 * nested rows alternating) adds its children's and the splitters between them, a column takes
 * its widest child, a tile its widest tab's minimum.
 */
export function minimumWidth(layout: IJsonModel): number {
  const widthOf = (node: JsonNode, horizontal: boolean): number => {
    if (isTabSet(node))
      return Math.max(
        MIN_TILE.width,
        ...(node.children ?? []).filter(isTab).map((tab) => tab.minWidth ?? MIN_TILE.width),
      );
    const children = (node.children ?? []) as JsonNode[];
    if (children.length === 0) return 0;
    const widths = children.map((child) => widthOf(child, !horizontal));
    return horizontal
      ? widths.reduce((sum, width) => sum + width, 0) + SPLITTER_PX * (children.length - 1)
      : Math.max(...widths);
  };
  return widthOf(layout.layout, layout.global?.rootOrientationVertical !== true);
}

/**
 * The layout as two tiles, for an area too narrow for all of its own: the chat's tile as it is,
 * and every other tab in one tile beside it. Without a chat tab, one tile.
 */
export function chatBesideTabs(layout: IJsonModel): IJsonModel {
  const sets = tabSetsOf(layout);
  const chatSet = sets.find((set) => (set.children ?? []).some((child) => isTab(child) && child.component === 'chat'));
  const others = sets.filter((set) => set !== chatSet).flatMap((set) => (set.children ?? []).filter(isTab));
  if (!chatSet || others.length === 0) return singleTile(layout);
  const { maximized: _maximized, ...left } = chatSet;
  const right: IJsonTabSetNode = { type: 'tabset', id: 'others', weight: 65, selected: 0, children: others };
  return {
    ...layout,
    layout: { type: 'row', id: 'root', weight: 100, children: [{ ...left, weight: 35 }, right] },
  };
}

/**
 * Whether dropping a tab on a side of a tile (or row) leaves both halves their minimum size; where
 * it would not, the drop stacks the tab into that tile instead of splitting it.
 */
export function splitFits(
  target: { width: number; height: number; minWidth: number; minHeight: number },
  side: 'left' | 'right' | 'top' | 'bottom' | 'center',
): boolean {
  if (side === 'center') return true;
  if (side === 'left' || side === 'right') return target.width >= target.minWidth + MIN_TILE.width + SPLITTER_PX;
  return target.height >= target.minHeight + MIN_TILE.height + SPLITTER_PX;
}
