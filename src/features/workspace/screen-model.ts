import { Actions, DockLocation, Model, TabNode, TabSetNode } from 'flexlayout-react';
import { type TabComponent } from '../../../machines/layout-json.ts';
import { isWorkspaceTab } from './tab-registry.ts';

/**
 * The flexlayout model on screen, for the commands that act on flexlayout itself rather than on
 * the layout's JSON: popping a tab out into a window and docking it back, finding the tab the
 * user is in, and the keyboard's tiling (focus a tile, move a tab to a tile, cycle tabs). Its
 * changes reach the layout machine as the view's MODEL_CHANGED, like a drag does.
 */
export function createScreenModel() {
  let shown: Model | null = null;
  // Not in the layout machine: these name nodes and windows of flexlayout's live Model (which the machine never sees), for the commands that act on it.
  /** The tab set each popped-out tab came from, to dock it back there. */
  const origins = new Map<string, string>();
  /** Popouts whose window did open: a popout closed without opening was blocked by the browser. */
  const openedPopouts = new Set<string>();
  const tabNode = (component: TabComponent) => {
    const node = shown?.getNodeById(component);
    return node instanceof TabNode ? node : null;
  };
  /** The tiles of the main layout, from the left (the order flexlayout visits them). */
  const tiles = (): TabSetNode[] => {
    const found: TabSetNode[] = [];
    shown?.visitNodes((node) => {
      if (node instanceof TabSetNode && node.getLayoutId() === Model.MAIN_LAYOUT_ID) found.push(node);
    });
    return found;
  };
  const activeTile = () => {
    const active = shown?.getActiveTabset();
    return active && active.getLayoutId() === Model.MAIN_LAYOUT_ID ? active : (tiles()[0] ?? null);
  };
  /** The tile `step` places after the active one, wrapping around. */
  const neighbour = (step: 1 | -1) => {
    const all = tiles();
    const index = all.indexOf(activeTile() as TabSetNode);
    return all.length < 2 || index === -1 ? null : (all[(index + step + all.length) % all.length] ?? null);
  };
  /** Keyboard focus on a tab's button, so the next Tab key goes into it. */
  const focusTabButton = (tab: TabNode | undefined) => {
    if (!tab) return;
    const path = tab.getPath().replace(/\/t(\d+)$/, '/tb$1');
    tab
      .getWindow()
      ?.document.querySelector<HTMLElement>(`[data-layout-path="${CSS.escape(path)}"]`)
      ?.focus();
  };
  return {
    show(model: Model) {
      shown = model;
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
      if (parent instanceof TabSetNode) origins.set(component, parent.getId());
      shown?.doAction(Actions.popoutTab(component, 'window'));
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
      if (!model || !root) return;
      const tabs: TabNode[] = [];
      model.visitLayoutNodes(layoutId, (node) => {
        if (node instanceof TabNode) tabs.push(node);
      });
      const moves = tabs.map((tab) => {
        const origin = model.getNodeById(origins.get(tab.getId()) ?? '');
        origins.delete(tab.getId());
        return origin instanceof TabSetNode && origin.getLayoutId() === Model.MAIN_LAYOUT_ID
          ? Actions.moveNode(tab.getId(), origin.getId(), DockLocation.CENTER, -1, true)
          : Actions.moveNode(tab.getId(), root.getId(), DockLocation.RIGHT, -1, true);
      });
      if (moves.length > 0) model.doAction(Actions.group(moves));
    },
    /** Makes the next (1) or previous (-1) tile the active one and moves the keyboard focus onto its tab. */
    focusTile(step: 1 | -1) {
      const target = neighbour(step);
      if (!target) return;
      shown?.doAction(Actions.setActiveTabset(target.getId(), Model.MAIN_LAYOUT_ID));
      const selected = target.getSelectedNode();
      focusTabButton(selected instanceof TabNode ? selected : undefined);
    },
    /** Moves the active tile's tab into the next (1) or previous (-1) tile. */
    moveTab(step: 1 | -1) {
      const from = activeTile();
      const tab = from?.getSelectedNode();
      const target = neighbour(step);
      if (!(tab instanceof TabNode) || !target) return;
      shown?.doAction(Actions.moveNode(tab.getId(), target.getId(), DockLocation.CENTER, -1, true));
      focusTabButton(tab);
    },
    /** Shows the next (1) or previous (-1) tab of the active tile. */
    cycleTab(step: 1 | -1) {
      const tile = activeTile();
      const tabs = tile?.getChildren().filter((child): child is TabNode => child instanceof TabNode) ?? [];
      if (!tile || tabs.length < 2) return;
      const next = tabs[(tile.getSelected() + step + tabs.length) % tabs.length];
      if (!next) return;
      shown?.doAction(Actions.selectTab(next.getId()));
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
