import { Actions, DockLocation, Model, TabNode, TabSetNode } from 'flexlayout-react';
import { type TabComponent } from '../../../machines/layout-json.ts';
import { isWorkspaceTab } from './tab-registry.ts';

/**
 * The flexlayout model on screen, for the commands that act on flexlayout itself rather than on
 * the layout's JSON: popping a tab out into a window and docking it back, and finding the tab the
 * user is in.
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
