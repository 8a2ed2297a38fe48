import type * as Flexlayout from 'flexlayout-react';
import { type TabComponent } from '../../../machines/layout-json.ts';
import { isWorkspaceTab } from './tab-registry.ts';

/**
 * The flexlayout model on screen, for the commands that act on flexlayout itself rather than on
 * the layout's JSON: popping a tab out into a window and docking it back, finding the tab the
 * user is in, and the keyboard's tiling (focus a tile, move a tab to a tile, cycle tabs). Its
 * changes reach the layout machine as the view's MODEL_CHANGED, like a drag does. flexlayout itself
 * comes with the model (`show`): it loads after the chat's first frame, and until then every
 * command has nothing to act on.
 */
/** What the commands use of flexlayout, handed over by the view that loaded it. */
export type FlexlayoutParts = Pick<typeof Flexlayout, 'Actions' | 'DockLocation' | 'Model' | 'TabNode' | 'TabSetNode'>;

export function createScreenModel() {
  let shown: Flexlayout.Model | null = null;
  let flex: FlexlayoutParts | null = null;
  const isTab = (node: unknown): node is Flexlayout.TabNode => !!flex && node instanceof flex.TabNode;
  const isTabSet = (node: unknown): node is Flexlayout.TabSetNode => !!flex && node instanceof flex.TabSetNode;
  /** In the page's own layout, not a popout window's. */
  const inMainLayout = (node: Flexlayout.TabSetNode) => !!flex && node.getLayoutId() === flex.Model.MAIN_LAYOUT_ID;
  // Not in the layout machine: these name nodes and windows of flexlayout's live Model (which the machine never sees), for the commands that act on it.
  /** The tab set each popped-out tab came from, to dock it back there. */
  const origins = new Map<string, string>();
  /** Popouts whose window did open: a popout closed without opening was blocked by the browser. */
  const openedPopouts = new Set<string>();
  const tabNode = (component: TabComponent) => {
    const node = shown?.getNodeById(component);
    return isTab(node) ? node : null;
  };
  /** The tiles of the main layout, from the left (the order flexlayout visits them). */
  const tiles = (): Flexlayout.TabSetNode[] => {
    const found: Flexlayout.TabSetNode[] = [];
    shown?.visitNodes((node) => {
      if (isTabSet(node) && inMainLayout(node)) found.push(node);
    });
    return found;
  };
  const activeTile = () => {
    const active = shown?.getActiveTabset();
    return active && inMainLayout(active) ? active : (tiles()[0] ?? null);
  };
  /** The tile `step` places after the active one, wrapping around. */
  const neighbour = (step: 1 | -1) => {
    const all = tiles();
    const index = all.indexOf(activeTile() as Flexlayout.TabSetNode);
    return all.length < 2 || index === -1 ? null : (all[(index + step + all.length) % all.length] ?? null);
  };
  /** Keyboard focus on a tab's button, so the next Tab key goes into it. */
  const focusTabButton = (tab: Flexlayout.TabNode | undefined) => {
    if (!tab) return;
    const path = tab.getPath().replace(/\/t(\d+)$/, '/tb$1');
    tab
      .getWindow()
      ?.document.querySelector<HTMLElement>(`[data-layout-path="${CSS.escape(path)}"]`)
      ?.focus();
  };
  return {
    show(model: Flexlayout.Model, library: FlexlayoutParts) {
      shown = model;
      flex = library;
    },
    /** The tab in the active (else the first) tile. */
    activeComponent(): TabComponent | null {
      const tabSet = shown?.getActiveTabset() ?? shown?.getFirstTabSet();
      const component = tabSet?.getSelectedNode()?.getComponent?.();
      return isWorkspaceTab(component) ? component : null;
    },
    /** Opens the tab in a browser window of its own (flexlayout's popout window). */
    popOut(component: TabComponent) {
      const parent = tabNode(component)?.getParent();
      if (isTabSet(parent)) origins.set(component, parent.getId());
      if (flex) shown?.doAction(flex.Actions.popoutTab(component, 'window'));
    },
    opened(layoutId: string) {
      openedPopouts.add(layoutId);
    },
    wasOpened: (layoutId: string) => openedPopouts.has(layoutId),
    /** Brings the window the tab is in to the front. */
    focusWindow(component: TabComponent) {
      tabNode(component)?.getWindow()?.focus();
    },
    /** Moves the popout's tabs back into the layout: into the tab set each came from when it is still there, else on the right. */
    dock(layoutId: string) {
      openedPopouts.delete(layoutId);
      const model = shown;
      const root = model?.getRootRow();
      if (!model || !root || !flex) return;
      const { Actions, DockLocation } = flex;
      const tabs: Flexlayout.TabNode[] = [];
      model.visitLayoutNodes(layoutId, (node) => {
        if (isTab(node)) tabs.push(node);
      });
      const moves = tabs.map((tab) => {
        const origin = model.getNodeById(origins.get(tab.getId()) ?? '');
        origins.delete(tab.getId());
        return isTabSet(origin) && inMainLayout(origin)
          ? Actions.moveNode(tab.getId(), origin.getId(), DockLocation.CENTER, -1, true)
          : Actions.moveNode(tab.getId(), root.getId(), DockLocation.RIGHT, -1, true);
      });
      if (moves.length > 0) model.doAction(Actions.group(moves));
    },
    /** Makes the next (1) or previous (-1) tile the active one and moves the keyboard focus onto its tab. */
    focusTile(step: 1 | -1) {
      const target = neighbour(step);
      if (!target || !flex) return;
      shown?.doAction(flex.Actions.setActiveTabset(target.getId(), flex.Model.MAIN_LAYOUT_ID));
      const selected = target.getSelectedNode();
      focusTabButton(isTab(selected) ? selected : undefined);
    },
    /** Moves the active tile's tab into the next (1) or previous (-1) tile. */
    moveTab(step: 1 | -1) {
      const from = activeTile();
      const tab = from?.getSelectedNode();
      const target = neighbour(step);
      if (!isTab(tab) || !target || !flex) return;
      shown?.doAction(flex.Actions.moveNode(tab.getId(), target.getId(), flex.DockLocation.CENTER, -1, true));
      focusTabButton(tab);
    },
    /** Shows the next (1) or previous (-1) tab of the active tile. */
    cycleTab(step: 1 | -1) {
      const tile = activeTile();
      const tabs = tile?.getChildren().filter(isTab) ?? [];
      if (!tile || tabs.length < 2 || !flex) return;
      const next = tabs[(tile.getSelected() + step + tabs.length) % tabs.length];
      if (!next) return;
      shown?.doAction(flex.Actions.selectTab(next.getId()));
      focusTabButton(next);
    },
    /** Focuses the field with this accessible label in the tab (e.g. the chat's message box), wherever the tab is drawn. */
    focusField(component: TabComponent, label: string) {
      const field = tabNode(component)
        ?.getDocument()
        ?.querySelector<HTMLElement>(`[aria-label="${CSS.escape(label)}"]`);
      field?.focus();
    },
  };
}

export type ScreenModel = ReturnType<typeof createScreenModel>;
