import { Model, type IJsonModel } from 'flexlayout-react';
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import {
  layoutMachine,
  selectCanSave,
  selectLayoutChoices,
  type LayoutEvent,
  type SavedLayout,
} from '../../machines/layout.ts';
import {
  chatShare,
  maximisedComponent,
  openComponents,
  openTab,
  poppedOutComponents,
  presetLayout,
  PRESETS,
  tabOf,
  tabSetsOf,
  singleTile,
  chatBesideTabs,
  minimumWidth,
  splitFits,
  toggleMaximised,
  withMinimumSizes,
  type TabComponent,
} from '../../machines/layout-json.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const refusal = (status: number, message: string) => Object.assign(new Error(message), { status });

const teamLayout = presetLayout('user');
const savedTeam: SavedLayout[] = [{ name: 'team', layout: teamLayout }];
const draggedModel = openTab(presetLayout('default'), 'changes');
/** pm with the terminal popped out into a browser window, as flexlayout writes it. */
const poppedModel: IJsonModel = {
  ...presetLayout('pm'),
  subLayouts: {
    w1: {
      type: 'window',
      rect: { x: 40, y: 40, width: 600, height: 400 },
      layout: { type: 'row', children: [{ type: 'tabset', id: 'popped', children: [tabOf('terminal')] }] },
    },
  },
};

/** Events that change the model (run with the library loaded or not). */
const modelEvents: (LayoutEvent | AnyEventObject)[] = [
  { type: 'xstate.done.actor.listLayouts', output: savedTeam },
  { type: 'SELECT', layout: 'pm' },
  { type: 'SELECT', layout: 'user' },
  { type: 'SELECT', layout: 'saved:team' },
  { type: 'SELECT', layout: 'saved:nothing-by-that-name' },
  { type: 'OPEN_TAB', component: 'terminal' },
  { type: 'OPEN_TAB', component: 'chat' },
  { type: 'TOGGLE_MAXIMISE', component: 'chat' },
  { type: 'POP_OUT', component: 'chat' },
  { type: 'RESET' },
  { type: 'MODEL_CHANGED', layout: draggedModel },
  { type: 'MODEL_CHANGED', layout: poppedModel },
  { type: 'POPOUT_CLOSED', layoutId: 'w1' },
  { type: 'POPOUT_BLOCKED', layoutId: 'w1' },
];

/** Events of the saved layouts and the Save Layout dialog. */
const dialogEvents: (LayoutEvent | AnyEventObject)[] = [
  { type: 'xstate.done.actor.listLayouts', output: savedTeam },
  { type: 'xstate.error.actor.listLayouts', error: new TypeError('Failed to fetch') },
  { type: 'OPEN_SAVE_DIALOG' },
  { type: 'NAME_CHANGED', name: '  mine  ' },
  { type: 'NAME_CHANGED', name: '   ' },
  { type: 'SAVE' },
  { type: 'CANCEL' },
  { type: 'xstate.done.actor.saveLayout', output: { name: 'mine', layout: presetLayout('pm') } },
  { type: 'xstate.error.actor.saveLayout', error: refusal(413, 'The layout is too large.') },
  { type: 'xstate.error.actor.saveLayout', error: new TypeError('Failed to fetch') },
];

const fakes: FakeSideEffects = {
  promises: ['listLayouts', 'saveLayout'],
  callbacks: {},
  actions: ['popOut', 'focusPopout', 'dockPopout', 'announcePopoutBlocked'],
};

/** A model flexlayout-react accepts, with the same tabs (in the layout and popped out) once it has read it. */
function expectValidModel(layout: IJsonModel) {
  const read = Model.fromJson(layout).toJson();
  expect(openComponents(read)).toEqual(openComponents(layout));
  expect(poppedOutComponents(read)).toEqual(poppedOutComponents(layout));
}

/** The side effects each event runs; OPEN_TAB of a popped-out tab brings its window forward instead. */
function expectedEffects(event: LayoutEvent | AnyEventObject, before: AnyMachineSnapshot): string[] {
  switch (event.type) {
    case 'POP_OUT':
      return ['popOut'];
    case 'OPEN_TAB':
      return poppedOutComponents(before.context.layout).includes((event as { component: string }).component)
        ? ['focusPopout']
        : [];
    case 'POPOUT_CLOSED':
      return ['dockPopout'];
    case 'POPOUT_BLOCKED':
      return ['dockPopout', 'announcePopoutBlocked'];
    default:
      return [];
  }
}

function expectSideEffects({ event, before, after, effects, started }: StepRecord) {
  expect(effects).toEqual(expectedEffects(event, before));
  if (event.type === 'OPEN_TAB' && effects.length > 0) expect(after.context.layout).toBe(before.context.layout);
  else if (event.type === 'OPEN_TAB') {
    const component = (event as unknown as Extract<LayoutEvent, { type: 'OPEN_TAB' }>).component;
    expect(after.context.layout).toEqual(openTab(before.context.layout, component));
    expect(openComponents(after.context.layout).filter((name) => name === component)).toHaveLength(1);
  }
  if (event.type === 'SELECT' && before.context.selected !== after.context.selected) {
    expect(after.context.layout).toEqual(
      (event as unknown as { layout: string }).layout === 'saved:team'
        ? teamLayout
        : presetLayout((event as unknown as { layout: 'pm' | 'user' }).layout),
    );
  }
  if (event.type === 'RESET') {
    const selected = after.context.selected as string;
    expect(after.context.layout).toEqual(selected === 'saved:team' ? teamLayout : presetLayout(selected as 'pm'));
  }
  for (const { src, input } of started) {
    if (src === 'saveLayout') expect(input).toEqual({ name: 'mine', layout: before.context.layout });
  }
  if (event.type === 'xstate.done.actor.saveLayout') {
    expect(after.context.selected).toBe('saved:mine');
    expect(Object.keys(after.context.saved)).toContain('mine');
  }
  expectValidModel(after.context.layout);
}

const summarizeModel = (snapshot: AnyMachineSnapshot) => ({
  value: snapshot.value,
  selected: snapshot.context.selected,
  tabs: openComponents(snapshot.context.layout),
  // Which tab each tile shows and which tile is active: a tab opened into a tile changes them.
  tiles: tabSetsOf(snapshot.context.layout).map((set) => [set.selected ?? 0, set.active ?? false]),
  poppedOut: poppedOutComponents(snapshot.context.layout),
  maximised: maximisedComponent(snapshot.context.layout),
  saved: Object.keys(snapshot.context.saved),
});
const summarizeDialog = (snapshot: AnyMachineSnapshot) => ({
  value: snapshot.value,
  selected: snapshot.context.selected,
  saved: Object.keys(snapshot.context.saved).sort(),
  draft: snapshot.context.draftName,
  failure: snapshot.context.failure?.kind ?? null,
});

const coverage = new Coverage(layoutMachine);
let pathCount = 0;

describe('layout machine, every edge of its graph', () => {
  for (const [name, events, summarize] of [
    ['changing the model', modelEvents, summarizeModel],
    ['saved layouts and the Save Layout dialog', dialogEvents, summarizeDialog],
  ] as const) {
    describe(name, () => {
      const paths = withoutPrefixPaths(pathsThroughEveryEdge(layoutMachine, { events, summarize }));
      pathCount += paths.length;
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        const reached = await runPath(layoutMachine, path, { fakes, coverage, expectStep: expectSideEffects });
        expect(reached.value).toEqual(path.state.value);
      });
    });
  }

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('layout rules', () => {
  const weights = (layout: IJsonModel) =>
    tabSetsOf(layout).map((set) => [
      set.weight,
      (set.children ?? []).map((tab) => ('component' in tab ? tab.component : '')),
    ]);

  it('has the spec presets, each a model flexlayout-react accepts', () => {
    expect(weights(presetLayout('default'))).toEqual([[50, ['chat']]]);
    expect(weights(presetLayout('pm'))).toEqual([
      [35, ['chat']],
      [65, ['app', 'browser']],
    ]);
    expect(weights(presetLayout('user'))).toEqual([[100, ['app']]]);
    expect(weights(presetLayout('developer'))).toEqual([
      [30, ['chat', 'devops-agent']],
      [70, ['app', 'vscode', 'browser']],
    ]);
    for (const preset of PRESETS) expectValidModel(presetLayout(preset));
  });

  it('selects an open tab instead of adding it again', () => {
    const opened = openTab(presetLayout('pm'), 'browser');
    const right = tabSetsOf(opened)[1];
    expect(right?.selected).toBe(1);
    expect(right?.active).toBe(true);
    expect(openComponents(opened)).toEqual(openComponents(presetLayout('pm')));
  });

  it('adds a closed tab on the right, to the rightmost tile, instead of a new column each time', () => {
    const opened = openTab(openTab(presetLayout('pm'), 'terminal'), 'jupyter');
    const sets = tabSetsOf(opened);
    expect(sets.map((set) => set.id)).toEqual(['left', 'right']);
    expect(openComponents(opened)).toEqual(['chat', 'app', 'browser', 'terminal', 'jupyter']);
    expect(sets.at(-1)).toMatchObject({ selected: 3, active: true });
    expect(sets.filter((set) => set.active)).toHaveLength(1);
    expectValidModel(opened);
    // With every tile closed, the tab gets a tile of its own.
    const empty: IJsonModel = { ...presetLayout('default'), layout: { type: 'row', id: 'root', children: [] } };
    expect(tabSetsOf(openTab(empty, 'terminal')).map((set) => set.id)).toEqual(['added-1']);
  });

  it('keeps every tile at a usable size, the chat wide enough for its message box, also in layouts saved before', () => {
    const read = Model.fromJson(presetLayout('pm'));
    expect(read.getNodeById('chat')?.toJson()).toMatchObject({ minWidth: 320 });
    const old: IJsonModel = {
      global: {},
      borders: [],
      layout: {
        type: 'row',
        children: [{ type: 'tabset', id: 's', children: [{ type: 'tab', id: 'chat', component: 'chat' }] }],
      },
    };
    const sized = withMinimumSizes(old);
    expect(sized.global).toMatchObject({ tabMinWidth: 240, tabMinHeight: 160 });
    expect(tabSetsOf(sized)[0]?.children?.[0]).toMatchObject({ minWidth: 320 });
    expectValidModel(sized);
  });

  it('shows a narrow screen every open tab in one tile, on the tab the active tile showed', () => {
    const pm = openTab(presetLayout('pm'), 'browser');
    const single = singleTile(pm);
    expect(tabSetsOf(single)).toHaveLength(1);
    expect(openComponents(single)).toEqual(openComponents(pm));
    expect(tabSetsOf(single)[0]?.selected).toBe(openComponents(pm).indexOf('browser'));
    expectValidModel(single);
  });

  it('knows the narrowest width its tiles fit in, and falls back to the chat beside one tile of the rest', () => {
    expect(minimumWidth(presetLayout('pm'))).toBe(320 + 8 + 240);
    const tile = (id: string, component: TabComponent) => ({
      type: 'tabset' as const,
      id,
      weight: 25,
      children: [tabOf(component)],
    });
    const four = {
      ...presetLayout('pm'),
      layout: {
        type: 'row' as const,
        id: 'root',
        weight: 100,
        children: [
          tile('a', 'chat'),
          tile('b', 'app'),
          // A column: as wide as its widest tile.
          { type: 'row' as const, id: 'column', weight: 25, children: [tile('c', 'browser'), tile('d', 'terminal')] },
          tile('e', 'changes'),
        ],
      },
    };
    expect(minimumWidth(four)).toBe(320 + 3 * 240 + 3 * 8);
    const two = chatBesideTabs(four);
    expect(tabSetsOf(two).map((set) => (set.children ?? []).map((tab) => tab.id))).toEqual([
      ['chat'],
      ['app', 'browser', 'terminal', 'changes'],
    ]);
    expect(minimumWidth(two)).toBe(320 + 8 + 240);
    expectValidModel(two);
    expect(openComponents(chatBesideTabs(presetLayout('user')))).toEqual(['app']);
  });

  it('places the chat of the first frame where its tile will be, when it is on screen at first', () => {
    expect(chatShare(presetLayout('pm'))).toBe(0.35);
    expect(chatShare(presetLayout('default'))).toBe(1);
    expect(chatShare(presetLayout('user'))).toBeNull();
    expect(chatShare(presetLayout('developer'))).toBe(0.3);
    expect(chatShare(toggleMaximised(presetLayout('pm'), 'chat'))).toBe(1);
    expect(chatShare(toggleMaximised(presetLayout('pm'), 'app'))).toBeNull();
    // A narrow screen's single tile shows the chat only when it was the active tile's tab.
    expect(chatShare(singleTile(presetLayout('pm')))).toBe(1);
    expect(chatShare(singleTile(openTab(presetLayout('pm'), 'browser')))).toBeNull();
  });

  it('splits a tile only where both halves keep their minimum size, else the tab stacks into it', () => {
    const tile = { width: 600, height: 400, minWidth: 320, minHeight: 160 };
    expect(splitFits(tile, 'right')).toBe(true);
    expect(splitFits({ ...tile, width: 500 }, 'left')).toBe(false);
    expect(splitFits(tile, 'bottom')).toBe(true);
    expect(splitFits({ ...tile, height: 300 }, 'top')).toBe(false);
    expect(splitFits({ ...tile, width: 10, height: 10 }, 'center')).toBe(true);
  });

  it('maximises one tab set at a time and restores it', () => {
    const maximised = toggleMaximised(presetLayout('pm'), 'browser');
    expect(maximisedComponent(maximised)).toBe('app');
    expect(Model.fromJson(maximised).getMaximizedTabset()?.getId()).toBe('right');
    const moved = toggleMaximised(maximised, 'chat');
    expect(tabSetsOf(moved).filter((set) => set.maximized)).toHaveLength(1);
    expect(maximisedComponent(toggleMaximised(moved, 'chat'))).toBeNull();
  });

  it('offers the presets then the saved layouts, and saves only a non-empty trimmed name', async () => {
    const actor = createActor(
      layoutMachine.provide({
        actors: {
          listLayouts: (await import('xstate')).fromPromise(async () => savedTeam),
        },
      }),
    ).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(selectLayoutChoices(actor.getSnapshot())).toEqual(['default', 'pm', 'user', 'developer', 'saved:team']);
    expect(actor.getSnapshot().context.selected).toBe('pm');
    actor.send({ type: 'OPEN_SAVE_DIALOG' });
    actor.send({ type: 'NAME_CHANGED', name: '   ' });
    expect(selectCanSave(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'SAVE' });
    expect(actor.getSnapshot().matches({ saveDialog: 'editing' })).toBe(true);
    actor.stop();
  });
});
