import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { linkEditorMachine } from '../../machines/link-editor.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const conflict = Object.assign(new Error('This code is already taken.'), { status: 409 });
const events: AnyEventObject[] = [
  { type: 'CREATE' },
  { type: 'DRAFT_CHANGED', field: 'name', value: ' YouTube ' },
  { type: 'DRAFT_CHANGED', field: 'code', value: ' my-code ' },
  { type: 'DRAFT_CHANGED', field: 'code', value: '   ' },
  { type: 'RENAME', linkId: 'l1', name: 'Blog' },
  { type: 'RENAME', linkId: 'l2', name: 'Shop' },
  { type: 'NAME_CHANGED', name: ' Newsletter ' },
  { type: 'NAME_CHANGED', name: '  ' },
  { type: 'ARCHIVE', linkId: 'l1' },
  { type: 'SAVE' },
  { type: 'CANCEL' },
  { type: 'xstate.done.actor.createLink', output: {} },
  { type: 'xstate.error.actor.createLink', error: conflict },
  { type: 'xstate.done.actor.renameLink', output: {} },
  { type: 'xstate.error.actor.renameLink', error: new TypeError('Failed to fetch') },
  { type: 'xstate.done.actor.archiveLink', output: {} },
  { type: 'xstate.error.actor.archiveLink', error: new TypeError('Failed to fetch') },
];
const fakes: FakeSideEffects = {
  promises: ['createLink', 'renameLink', 'archiveLink'],
  callbacks: {},
  actions: ['refreshLinks', 'announceCreateFailure', 'announceArchiveFailure', 'logRenameFailure'],
};

function expectSideEffects({ event, before, effects, started }: StepRecord) {
  if (event.type === 'SAVE' && started.length > 0) {
    const [{ src, input }] = started as [{ src: string; input: unknown }];
    // What is sent is trimmed and never empty.
    if (src === 'createLink') expect(input).toEqual({ name: 'YouTube', code: 'my-code' });
    if (src === 'renameLink') expect((input as { name: string }).name).toMatch(/^\S(.*\S)?$/);
    if (src === 'archiveLink') expect(input).toEqual({ linkId: before.context.linkId });
  }
  if (event.type === 'SAVE' && before.matches({ creating: 'editing' }) && started.length === 0)
    expect(before.context.draft.code.trim() === '' || before.context.draft.name.trim() === '').toBe(true);
  const outcome = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type);
  if (!outcome) return expect(effects).toEqual([]);
  const expected: Record<string, string[]> = {
    'done createLink': ['refreshLinks'],
    'done renameLink': ['refreshLinks'],
    'done archiveLink': ['refreshLinks'],
    'error createLink': ['announceCreateFailure'],
    'error renameLink': ['logRenameFailure'],
    'error archiveLink': ['announceArchiveFailure'],
  };
  expect(effects).toEqual(expected[`${outcome[1]} ${outcome[2]}`]);
}

const coverage = new Coverage(linkEditorMachine);
const paths = withoutPrefixPaths(pathsThroughEveryEdge(linkEditorMachine, { events }));

describe('link editor machine, every edge of its graph', () => {
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    await runPath(linkEditorMachine, path, { fakes, coverage, expectStep: expectSideEffects });
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(paths.length)));
});
