import { Actions, type Model } from 'flexlayout-react';
import type { TabComponent } from '../../../machines/layout.ts';
import { isWorkspaceTab } from './tab-registry.ts';

/**
 * The flexlayout model on screen, for the commands that act on flexlayout itself rather than on
 * the layout's JSON: pop-out, and finding the tab the user is in.
 */
export function createScreenModel() {
  let shown: Model | null = null;
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
    /** Floats the tab inside the page: no second HTML page, and the framed layer can follow it. */
    popOut(component: TabComponent) {
      shown?.doAction(Actions.popoutTab(component, 'float'));
    },
  };
}

export type ScreenModel = ReturnType<typeof createScreenModel>;
