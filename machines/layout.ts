import type { IJsonModel, IJsonRowNode, IJsonTabNode, IJsonTabSetNode } from 'flexlayout-react';
import { assign, setup, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';
import { isServerRejection, messageNotice, serverNotice, type Notice } from './notice.ts';

// The workspace layout: which tabs are open, where, and the layouts the user saved.
//
// A layout is a flexlayout-react model in its JSON form (IJsonModel), so it can be stored as
// given (PUT /api/user/layouts/{name}) and handed to `Model.fromJson` by the view. The presets
// are the spec's; the pm preset is selected when the workspace loads. Saved layouts are listed
// under a 'saved:' prefix. Opening a tab that is already open selects it; otherwise it is added
// on the right, as a new tab set at the end of the root row. The view reports the user's own
// changes (dragging, resizing, closing) with MODEL_CHANGED so that saving keeps them.
//
// A tab popped out into a browser window of its own is kept in the model's `subLayouts` (as
// flexlayout-react writes it). Opening such a tab brings its window to the front instead of
// adding it again; when the window closes (or the browser blocks it) the view docks the tab
// back into the layout.
//
// Tab names are i18n keys of the `workspace` namespace (tabs.chat, ...): the view translates
// them when it renders a tab button.

export const TAB_COMPONENTS = ['chat', 'app', 'vscode', 'terminal', 'jupyter', 'browser', 'changes', 'devops-agent'] as const;
export type TabComponent = (typeof TAB_COMPONENTS)[number];

export const PRESETS = ['default', 'pm', 'user', 'developer'] as const;
export type PresetName = (typeof PRESETS)[number];
export const SAVED_PREFIX = 'saved:';
/** A preset's name, or a saved layout's name behind the 'saved:' prefix. */
export type LayoutId = PresetName | `saved:${string}`;

export const INITIAL_LAYOUT: PresetName = 'pm';

/**
 * The DevOps agent does not exist yet (no server behind its tab), so the developer preset leaves
 * its tab out. Flip this when the DevOps agent lands and the preset becomes the spec's.
 */
export const DEVOPS_AGENT_AVAILABLE = false;

export interface LayoutOptions {
  /** Whether the DevOps agent tab belongs in the developer preset. */
  devopsAgent: boolean;
}

const tabNameKey = (component: TabComponent) => `tabs.${component === 'devops-agent' ? 'devopsAgent' : component}`;

/** A tab of one of the components; its id is the component, since each appears at most once. */
export function tabOf(component: TabComponent): IJsonTabNode {
  return { type: 'tab', id: component, name: tabNameKey(component), component };
}

function tabSet(id: string, weight: number, components: TabComponent[]): IJsonTabSetNode {
  return { type: 'tabset', id, weight, selected: 0, children: components.map(tabOf) };
}

const GLOBAL: IJsonModel['global'] = { tabEnablePopout: true, tabSetEnableMaximize: true, tabEnableRename: false };

function model(children: IJsonTabSetNode[]): IJsonModel {
  return { global: { ...GLOBAL }, borders: [], layout: { type: 'row', id: 'root', weight: 100, children } };
}

/** The spec's presets: default (chat only), pm (chat 35 | web app + browser 65), user (web app only), developer (chat + DevOps agent 30 | web app, VS Code, browser 70). */
export function presetLayout(name: PresetName, options: LayoutOptions = { devopsAgent: DEVOPS_AGENT_AVAILABLE }): IJsonModel {
  switch (name) {
    case 'default':
      return model([tabSet('main', 50, ['chat'])]);
    case 'pm':
      return model([tabSet('left', 35, ['chat']), tabSet('right', 65, ['app', 'browser'])]);
    case 'user':
      return model([tabSet('main', 100, ['app'])]);
    case 'developer':
      return model([tabSet('left', 30, options.devopsAgent ? ['chat', 'devops-agent'] : ['chat']), tabSet('right', 70, ['app', 'vscode', 'browser'])]);
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

const tabSetsBelow = (node: JsonNode): IJsonTabSetNode[] => (isTabSet(node) ? [node] : (node.children ?? []).flatMap(tabSetsBelow));

/** Every tab set of the model's layout (popouts aside), depth first from the left. */
export function tabSetsOf(layout: IJsonModel): IJsonTabSetNode[] {
  return tabSetsBelow(layout.layout);
}

const isTab = (child: NonNullable<IJsonTabSetNode['children']>[number]): child is IJsonTabNode => child.type === undefined || child.type === 'tab';

const componentsOf = (sets: IJsonTabSetNode[]) => sets.flatMap((set) => (set.children ?? []).filter(isTab).map((tab) => tab.component ?? ''));

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
  const walk = (node: JsonNode): JsonNode => (isTabSet(node) ? update(node) : { ...node, children: (node.children ?? []).map(walk) as IJsonRowNode['children'] });
  return { ...layout, layout: walk(layout.layout) as IJsonRowNode };
}

/**
 * Opens a tab: an open one is selected (and its tab set made active); otherwise it is added on
 * the right, in a new tab set at the end of the root row. The model given is not changed.
 */
export function openTab(layout: IJsonModel, component: TabComponent): IJsonModel {
  const holder = tabSetsOf(layout).find((set) => (set.children ?? []).some((child) => isTab(child) && child.component === component));
  if (holder) {
    return mapTabSets(layout, (set) => {
      const { active: _active, ...rest } = set;
      if (set !== holder) return rest;
      const selected = (set.children ?? []).findIndex((child) => isTab(child) && child.component === component);
      return { ...rest, selected, active: true };
    });
  }
  const withoutActive = mapTabSets(layout, ({ active: _active, ...rest }) => rest);
  const root = withoutActive.layout;
  const used = new Set(tabSetsOf(layout).map((set) => set.id));
  let index = 1;
  while (used.has(`added-${index}`)) index += 1;
  const added: IJsonTabSetNode = { ...tabSet(`added-${index}`, 50, [component]), active: true };
  return { ...withoutActive, layout: { ...root, children: [...(root.children ?? []), added] } };
}

/** Maximises the tab set holding the component's tab, or restores it when it is the maximised one; at most one is maximised. */
export function toggleMaximised(layout: IJsonModel, component: TabComponent): IJsonModel {
  const holder = tabSetsOf(layout).find((set) => (set.children ?? []).some((child) => isTab(child) && child.component === component));
  if (!holder) return layout;
  const maximise = holder.maximized !== true;
  return mapTabSets(layout, ({ maximized: _maximized, ...rest }) => (rest.id === holder.id && maximise ? { ...rest, maximized: true } : rest));
}

/** The component whose tab set is maximised, if any (its selected tab). */
export function maximisedComponent(layout: IJsonModel): string | null {
  const set = tabSetsOf(layout).find((candidate) => candidate.maximized === true);
  if (!set) return null;
  const tabs = (set.children ?? []).filter(isTab);
  return tabs[set.selected ?? 0]?.component ?? tabs[0]?.component ?? null;
}

/** A layout name as it is saved: trimmed; null when nothing is left. */
export function layoutName(raw: string): string | null {
  const name = raw.trim();
  return name === '' ? null : name;
}

export type SavedLayout = { name: string; layout: IJsonModel };
export type LayoutMessage = 'saveLayoutFailed';
export type LayoutFailure = Notice<LayoutMessage>;

function saveFailure(error: unknown): LayoutFailure {
  return isServerRejection(error) && error.message !== '' ? serverNotice(error.message) : messageNotice('saveLayoutFailed');
}

export interface LayoutContext {
  selected: LayoutId;
  layout: IJsonModel;
  /** Saved layouts by name (kept in memory, as the spec says). */
  saved: Record<string, IJsonModel>;
  /** The Save Layout dialog's field. */
  draftName: string;
  failure: LayoutFailure | null;
  devopsAgent: boolean;
}

export interface LayoutInput {
  /** Defaults to DEVOPS_AGENT_AVAILABLE. */
  devopsAgent?: boolean;
}

export type LayoutEvent =
  | { type: 'SELECT'; layout: LayoutId }
  | { type: 'OPEN_TAB'; component: TabComponent }
  | { type: 'TOGGLE_MAXIMISE'; component: TabComponent }
  | { type: 'POP_OUT'; component: TabComponent }
  /** The view: a popout window closed (flexlayout's CLOSE_POPOUT), or the browser refused to open it. */
  | { type: 'POPOUT_CLOSED'; layoutId: string }
  | { type: 'POPOUT_BLOCKED'; layoutId: string }
  | { type: 'RESET' }
  | { type: 'MODEL_CHANGED'; layout: IJsonModel }
  | { type: 'OPEN_SAVE_DIALOG' }
  | { type: 'NAME_CHANGED'; name: string }
  | { type: 'SAVE' }
  | { type: 'CANCEL' };

/** The layout an id stands for: a preset, or a saved layout (undefined when unknown). */
function layoutFor(context: Pick<LayoutContext, 'saved' | 'devopsAgent'>, id: LayoutId): IJsonModel | undefined {
  if (isPreset(id)) return presetLayout(id, { devopsAgent: context.devopsAgent });
  const name = savedLayoutName(id);
  return name === null ? undefined : context.saved[name];
}

export const layoutMachine = setup({
  types: { context: {} as LayoutContext, events: {} as LayoutEvent, input: {} as LayoutInput },
  actors: {
    /** GET /api/user/layouts. */
    listLayouts: notProvidedPromise<SavedLayout[]>('listLayouts'),
    /** PUT /api/user/layouts/{name}. */
    saveLayout: notProvidedPromise<SavedLayout, SavedLayout>('saveLayout'),
  },
  actions: {
    /** Moves the tab to a browser window of its own (flexlayout's popout); the view reports the model afterwards. */
    popOut: notProvidedAction<{ component: TabComponent }>('popOut'),
    /** Brings the window of a popped-out tab to the front. */
    focusPopout: notProvidedAction<{ component: TabComponent }>('focusPopout'),
    /** Moves the tabs of a popout back into the layout (where they came from when that tab set is still there). */
    dockPopout: notProvidedAction<{ layoutId: string }>('dockPopout'),
    /** Tells the user the browser blocked the popout window. */
    announcePopoutBlocked: notProvidedAction('announcePopoutBlocked'),
    select: assign(({ context }, id: LayoutId) => ({ selected: id, layout: layoutFor(context, id) ?? context.layout })),
    openTab: assign(({ context }, component: TabComponent) => ({ layout: openTab(context.layout, component) })),
    toggleMaximised: assign(({ context }, component: TabComponent) => ({ layout: toggleMaximised(context.layout, component) })),
    reset: assign(({ context }) => ({ layout: layoutFor(context, context.selected) ?? presetLayout(INITIAL_LAYOUT, context) })),
    replaceModel: assign((_, layout: IJsonModel) => ({ layout })),
    rememberSaved: assign(({ context }, layouts: SavedLayout[]) => ({
      saved: { ...Object.fromEntries(layouts.map((entry) => [entry.name, entry.layout])), ...context.saved },
    })),
    keepSaved: assign(({ context }, { name, layout }: SavedLayout) => ({ saved: { ...context.saved, [name]: layout }, selected: savedLayoutId(name), draftName: '' })),
    changeName: assign((_, name: string) => ({ draftName: name })),
    forgetDraft: assign({ draftName: '', failure: null }),
    rememberFailure: assign((_, error: unknown) => ({ failure: saveFailure(error) })),
    forgetFailure: assign({ failure: null }),
  },
  guards: {
    isKnownLayout: ({ context }, id: LayoutId) => layoutFor(context, id) !== undefined,
    isOpen: ({ context }, component: TabComponent) => openComponents(context.layout).includes(component),
    isPoppedOut: ({ context }, component: TabComponent) => poppedOutComponents(context.layout).includes(component),
    hasName: ({ context }) => layoutName(context.draftName) !== null,
  },
}).createMachine({
  id: 'layout',
  type: 'parallel',
  context: ({ input }) => {
    const devopsAgent = input.devopsAgent ?? DEVOPS_AGENT_AVAILABLE;
    return { selected: INITIAL_LAYOUT, layout: presetLayout(INITIAL_LAYOUT, { devopsAgent }), saved: {}, draftName: '', failure: null, devopsAgent };
  },
  on: {
    SELECT: { guard: { type: 'isKnownLayout', params: ({ event }) => event.layout }, actions: { type: 'select', params: ({ event }) => event.layout } },
    OPEN_TAB: [
      { guard: { type: 'isPoppedOut', params: ({ event }) => event.component }, actions: { type: 'focusPopout', params: ({ event }) => ({ component: event.component }) } },
      { actions: { type: 'openTab', params: ({ event }) => event.component } },
    ],
    TOGGLE_MAXIMISE: { guard: { type: 'isOpen', params: ({ event }) => event.component }, actions: { type: 'toggleMaximised', params: ({ event }) => event.component } },
    POP_OUT: { guard: { type: 'isOpen', params: ({ event }) => event.component }, actions: { type: 'popOut', params: ({ event }) => ({ component: event.component }) } },
    POPOUT_CLOSED: { actions: { type: 'dockPopout', params: ({ event }) => ({ layoutId: event.layoutId }) } },
    POPOUT_BLOCKED: { actions: [{ type: 'dockPopout', params: ({ event }) => ({ layoutId: event.layoutId }) }, 'announcePopoutBlocked'] },
    RESET: { actions: 'reset' },
    MODEL_CHANGED: { actions: { type: 'replaceModel', params: ({ event }) => event.layout } },
  },
  states: {
    /** The saved layouts, loaded once. A failure leaves the list empty; the presets still work. */
    library: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'listLayouts',
            src: 'listLayouts',
            onDone: { target: 'ready', actions: { type: 'rememberSaved', params: ({ event }) => event.output } },
            onError: { target: 'ready' },
          },
        },
        ready: {},
      },
    },
    /** The Save Layout dialog. */
    saveDialog: {
      initial: 'closed',
      states: {
        closed: { on: { OPEN_SAVE_DIALOG: { target: 'editing', actions: 'forgetDraft' } } },
        editing: {
          on: {
            NAME_CHANGED: { actions: [{ type: 'changeName', params: ({ event }) => event.name }, 'forgetFailure'] },
            // Save is disabled while the trimmed name is empty.
            SAVE: { guard: 'hasName', target: 'saving' },
            CANCEL: { target: 'closed', actions: 'forgetDraft' },
          },
        },
        saving: {
          entry: 'forgetFailure',
          invoke: {
            id: 'saveLayout',
            src: 'saveLayout',
            input: ({ context }) => ({ name: layoutName(context.draftName) ?? '', layout: context.layout }),
            onDone: { target: 'closed', actions: { type: 'keepSaved', params: ({ event }) => event.output } },
            onError: { target: 'editing', actions: { type: 'rememberFailure', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
          },
        },
      },
    },
  },
});

type LayoutSnapshot = SnapshotFrom<typeof layoutMachine>;

/** The Layout menu: the presets, then the saved layouts by name. */
export const selectLayoutChoices = (snapshot: LayoutSnapshot): LayoutId[] => [
  ...PRESETS,
  ...Object.keys(snapshot.context.saved)
    .sort((a, b) => a.localeCompare(b))
    .map(savedLayoutId),
];
export const selectLayoutModel = (snapshot: LayoutSnapshot) => snapshot.context.layout;
export const selectSelectedLayout = (snapshot: LayoutSnapshot) => snapshot.context.selected;
export const selectSaveDialogOpen = (snapshot: LayoutSnapshot) => !snapshot.matches({ saveDialog: 'closed' });
export const selectCanSave = (snapshot: LayoutSnapshot) => snapshot.matches({ saveDialog: 'editing' }) && layoutName(snapshot.context.draftName) !== null;
export const selectIsSaving = (snapshot: LayoutSnapshot) => snapshot.matches({ saveDialog: 'saving' });
export const selectSaveFailure = (snapshot: LayoutSnapshot) => snapshot.context.failure;
export const selectMaximised = (snapshot: LayoutSnapshot) => maximisedComponent(snapshot.context.layout);
