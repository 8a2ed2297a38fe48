import { useSelector } from '@xstate/react';
import {
  Actions,
  DockLocation,
  Layout,
  Model,
  RowNode,
  TabNode,
  TabSetNode,
  type Action,
  type IJsonModel,
  type ModelLayout,
} from 'flexlayout-react';
import 'flexlayout-react/style/light.css';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { selectLayoutModel } from '../../../machines/layout.ts';
import {
  CHAT_MIN_WIDTH,
  MIN_TILE,
  openComponents,
  singleTile,
  chatBesideTabs,
  minimumWidth,
  splitFits,
  SPLITTER_PX,
  withMinimumSizes,
} from '../../../machines/layout-json.ts';
import { followColorScheme } from '../../app/color-scheme.ts';
import { useNarrowScreen } from '../../ui/index.ts';
import { HostSlot } from './HostSlot.tsx';
import { layoutString } from './layout-labels.ts';
import { createSlotStore, slotRect, type SlotStore } from './framed-slots.ts';
import { FRAMED_TABS, isWorkspaceTab, type WorkspaceTab } from './tab-registry.ts';
import type { FlexlayoutParts, ScreenModel } from './screen-model.ts';
import { TabView, type TabViewProps } from './TabView.tsx';
import type { LayoutActor } from './use-workspace.ts';
import * as styles from './workspace.css.ts';

type LayoutViewProps = Omit<TabViewProps, 'tab'> & {
  layout: LayoutActor;
  screen: ScreenModel;
  /** Where the chat is rendered, once, by the page: its tile (or popout window) adopts the element. */
  chatHost: HTMLElement;
};

/** A framed tab's tile: empty, it reports where it is for the framed layer to draw the tab over it. */
function FramedTile({
  tab,
  store,
  area,
}: {
  tab: WorkspaceTab;
  store: SlotStore;
  area: RefObject<HTMLDivElement | null>;
}) {
  const tile = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    // Tiles move without resizing (a tab dragged to another set), so the box is read every frame.
    let frame = 0;
    const measure = () => {
      if (tile.current && area.current)
        store.report(tab, slotRect(tile.current.getBoundingClientRect(), area.current.getBoundingClientRect()));
      frame = requestAnimationFrame(measure);
    };
    measure();
    return () => {
      cancelAnimationFrame(frame);
      store.report(tab, null);
    };
  }, [tab, store, area]);
  return <div ref={tile} className={styles.tile} />;
}

/** The framed tabs, each drawn once over its tile wherever the tile goes. */
function FramedTab({ store, ...view }: TabViewProps & { store: SlotStore }) {
  const tab = view.tab;
  const rect = useSyncExternalStore(store.subscribe, () => store.rectOf(tab));
  return (
    <div
      data-framed-tab={tab}
      className={styles.framed}
      style={rect ? { left: rect.left, top: rect.top, width: rect.width, height: rect.height } : { display: 'none' }}
    >
      <TabView {...view} />
    </div>
  );
}

/** The narrowest area that holds the chat and another tile side by side (and the splitter between). */
const SPLIT_MIN_WIDTH = CHAT_MIN_WIDTH + MIN_TILE.width + SPLITTER_PX;

/** The element's width, following resizes; null before it is measured. */
function useElementWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? null));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

const FLEXLAYOUT: FlexlayoutParts = { Actions, DockLocation, Model, TabNode, TabSetNode };

/** The page flexlayout opens a popped-out tab in (public/popout.html): an empty document it fills. */
const POPOUT_URL = '/popout.html';

/**
 * The tiles of the layout machine's model. The model is rebuilt only when the machine's layout is
 * not the one this view last reported (a preset, an opened tab, a reset), from the previous one so
 * that open tabs and popout windows stay as they are; the user's own moves are reported with
 * MODEL_CHANGED so that saving keeps them.
 *
 * Popping out: flexlayout moves the tab's content (still the same React tree, so the chat and the
 * terminal stay live) into a browser window it opens on popout.html, copying the page's styles.
 * Closing that window, or the browser blocking it, comes back here as CLOSE_POPOUT, which the
 * layout machine turns into docking the tab back. A framed tab (web app, VS Code) is drawn in its
 * popout window itself, so its page loads once more when it pops out and again when it returns;
 * moving tiles inside the page never reloads it.
 */
export default function LayoutView({ layout, screen, chatHost, ...tabProps }: LayoutViewProps) {
  const { t } = useTranslation('workspace');
  const json = useSelector(layout, selectLayoutModel);
  // A narrow screen, or an area too small for the chat beside another tile, shows the layout as one
  // tile; what the user does there is not kept as the layout.
  const area = useRef<HTMLDivElement>(null);
  const areaWidth = useElementWidth(area);
  const narrowScreen = useNarrowScreen();
  // An area too narrow for the layout's own tiles shows the chat beside one tile of the others
  // (or one tile), rather than tiles past the window's edge.
  const source = useMemo(() => {
    const fits = (candidate: IJsonModel) => areaWidth === null || areaWidth >= minimumWidth(candidate);
    if (narrowScreen || (areaWidth !== null && areaWidth < SPLIT_MIN_WIDTH)) return singleTile(json);
    if (fits(json)) return json;
    const two = chatBesideTabs(json);
    return fits(two) ? two : singleTile(json);
  }, [narrowScreen, areaWidth, json]);
  const narrow = source !== json;
  const [shown, setShown] = useState(() => ({ source, model: Model.fromJson(withMinimumSizes(source)) }));
  if (source !== shown.source) setShown({ source, model: Model.fromJson(withMinimumSizes(source), shown.model) });
  const model = shown.model;
  const [store] = useState(createSlotStore);
  const framed = useMemo(() => FRAMED_TABS.filter((tab) => openComponents(json).includes(tab)), [json]);

  useEffect(() => screen.show(model, FLEXLAYOUT), [model, screen]);

  const translate = useCallback(
    (key: string) => {
      const found = layoutString(key);
      if (found === null) return key;
      return 'tabName' in found ? t(found.tabName as 'tabs.chat') : t(`layoutControls.${found.control}`);
    },
    [t],
  );

  const factory = (node: TabNode) => {
    const tab = node.getComponent();
    if (!isWorkspaceTab(tab)) return null;
    if (tab === 'chat') return <HostSlot host={chatHost} />;
    if (FRAMED_TABS.includes(tab) && node.getLayoutId() === Model.MAIN_LAYOUT_ID)
      return <FramedTile tab={tab} store={store} area={area} />;
    return <TabView tab={tab} {...tabProps} />;
  };

  const onAction = (action: Action) => {
    if (action.type === Actions.MOVE_NODE) return stackWhenTooSmall(action);
    if (action.type !== Actions.CLOSE_POPOUT) return action;
    // flexlayout would turn the closed window into a panel floating in the page; the tab docks back instead.
    const layoutId = String((action.data as { layoutId: string }).layoutId);
    layout.send({ type: screen.wasOpened(layoutId) ? 'POPOUT_CLOSED' : 'POPOUT_BLOCKED', layoutId });
    return undefined;
  };

  /** A drop on a tile's side that would squeeze it or the new tile below their minimum stacks into the tile. */
  const stackWhenTooSmall = (action: Action) => {
    const data = action.data as { fromNode: string; toNode: string; location: string; select?: boolean };
    const target = model.getNodeById(data.toNode);
    // A row (the layout's edge) needs the minimums of the tiles in it; nested rows count as one tile.
    const tilesIn = target instanceof RowNode ? target.getChildren() : [target];
    const sets = tilesIn.filter((node): node is TabSetNode => node instanceof TabSetNode);
    if (!target || sets.length === 0) return action;
    const rect = target.getRect();
    const gaps = (sets.length - 1) * SPLITTER_PX;
    const size = {
      width: rect.width,
      height: rect.height,
      minWidth: sets.reduce((sum, set) => sum + set.getMinWidth(), gaps),
      minHeight: Math.max(...sets.map((set) => set.getMinHeight())),
    };
    const side = data.location as Parameters<typeof splitFits>[1];
    if (rect.width === 0 || splitFits(size, side)) return action;
    return Actions.moveNode(data.fromNode, data.toNode, DockLocation.CENTER, -1, data.select);
  };

  const onPopoutOpen = (popout: ModelLayout, popoutWindow: Window, popoutDocument: Document) => {
    screen.opened(popout.getLayoutId());
    followColorScheme(popoutDocument.documentElement, popoutWindow.matchMedia('(prefers-color-scheme: dark)'));
    const names: string[] = [];
    popout.visitNodes((node) => {
      if (node instanceof TabNode) names.push(translate(node.getName()));
    });
    popoutDocument.title = names.join(', ');
  };

  return (
    <div ref={area} className={styles.layoutArea}>
      <Layout
        model={model}
        factory={factory}
        supportsPopout
        popoutURL={POPOUT_URL}
        onAction={onAction}
        onPopoutOpen={onPopoutOpen}
        i18nTranslator={translate}
        onModelChange={(changed) => {
          if (narrow) return setShown({ source, model: changed });
          const next = changed.toJson();
          setShown({ source: next, model: changed });
          layout.send({ type: 'MODEL_CHANGED', layout: next });
        }}
      />
      {framed.map((tab) => (
        <FramedTab key={tab} tab={tab} store={store} {...tabProps} />
      ))}
    </div>
  );
}
