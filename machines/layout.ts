import type { IJsonModel } from 'flexlayout-react';
import { assign, setup, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import {
  INITIAL_LAYOUT,
  isPreset,
  layoutName,
  maximisedComponent,
  openComponents,
  openTab,
  poppedOutComponents,
  presetLayout,
  PRESETS,
  savedLayoutId,
  savedLayoutName,
  toggleMaximised,
  type LayoutId,
  type TabComponent,
} from './layout-json.ts';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';
import { isServerRejection, messageNotice, serverNotice, type Notice } from './notice.ts';

// The workspace layout: which tabs are open, where, and the layouts the user saved (the layout
// itself, as JSON, and its presets: layout-json.ts). The pm preset is selected when the
// workspace loads. Saved layouts are listed under a 'saved:' prefix. The view reports the
// user's own changes (dragging, resizing, closing) with MODEL_CHANGED so that saving keeps them.
//
// Opening a popped-out tab brings its window to the front instead of adding it again; when the
// window closes (or the browser blocks it) the view docks the tab back into the layout.

export type SavedLayout = { name: string; layout: IJsonModel };
export type LayoutMessage = 'saveLayoutFailed';
export type LayoutFailure = Notice<LayoutMessage>;

function saveFailure(error: unknown): LayoutFailure {
  return isServerRejection(error) && error.message !== ''
    ? serverNotice(error.message)
    : messageNotice('saveLayoutFailed');
}

export interface LayoutContext {
  selected: LayoutId;
  layout: IJsonModel;
  /** Saved layouts by name (kept in memory, as the spec says). */
  saved: Record<string, IJsonModel>;
  /** The Save Layout dialog's field. */
  draftName: string;
  failure: LayoutFailure | null;
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
function layoutFor(context: Pick<LayoutContext, 'saved'>, id: LayoutId): IJsonModel | undefined {
  if (isPreset(id)) return presetLayout(id);
  const name = savedLayoutName(id);
  return name === null ? undefined : context.saved[name];
}

export const layoutMachine = setup({
  types: { context: {} as LayoutContext, events: {} as LayoutEvent },
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
    toggleMaximised: assign(({ context }, component: TabComponent) => ({
      layout: toggleMaximised(context.layout, component),
    })),
    reset: assign(({ context }) => ({
      layout: layoutFor(context, context.selected) ?? presetLayout(INITIAL_LAYOUT),
    })),
    replaceModel: assign((_, layout: IJsonModel) => ({ layout })),
    rememberSaved: assign(({ context }, layouts: SavedLayout[]) => ({
      saved: { ...Object.fromEntries(layouts.map((entry) => [entry.name, entry.layout])), ...context.saved },
    })),
    keepSaved: assign(({ context }, { name, layout }: SavedLayout) => ({
      saved: { ...context.saved, [name]: layout },
      selected: savedLayoutId(name),
      draftName: '',
    })),
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
  context: {
    selected: INITIAL_LAYOUT,
    layout: presetLayout(INITIAL_LAYOUT),
    saved: {},
    draftName: '',
    failure: null,
  },
  on: {
    SELECT: {
      guard: { type: 'isKnownLayout', params: ({ event }) => event.layout },
      actions: { type: 'select', params: ({ event }) => event.layout },
    },
    OPEN_TAB: [
      {
        guard: { type: 'isPoppedOut', params: ({ event }) => event.component },
        actions: { type: 'focusPopout', params: ({ event }) => ({ component: event.component }) },
      },
      { actions: { type: 'openTab', params: ({ event }) => event.component } },
    ],
    TOGGLE_MAXIMISE: {
      guard: { type: 'isOpen', params: ({ event }) => event.component },
      actions: { type: 'toggleMaximised', params: ({ event }) => event.component },
    },
    POP_OUT: {
      guard: { type: 'isOpen', params: ({ event }) => event.component },
      actions: { type: 'popOut', params: ({ event }) => ({ component: event.component }) },
    },
    POPOUT_CLOSED: { actions: { type: 'dockPopout', params: ({ event }) => ({ layoutId: event.layoutId }) } },
    POPOUT_BLOCKED: {
      actions: [{ type: 'dockPopout', params: ({ event }) => ({ layoutId: event.layoutId }) }, 'announcePopoutBlocked'],
    },
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
            onError: {
              target: 'editing',
              actions: { type: 'rememberFailure', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            },
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
export const selectCanSave = (snapshot: LayoutSnapshot) =>
  snapshot.matches({ saveDialog: 'editing' }) && layoutName(snapshot.context.draftName) !== null;
export const selectIsSaving = (snapshot: LayoutSnapshot) => snapshot.matches({ saveDialog: 'saving' });
export const selectSaveFailure = (snapshot: LayoutSnapshot) => snapshot.context.failure;
export const selectMaximised = (snapshot: LayoutSnapshot) => maximisedComponent(snapshot.context.layout);
