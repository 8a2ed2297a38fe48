import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { repositoryPickerMachine, type Repository } from '../../machines/repository-picker.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const repo = (name: string, main: string | null = 'main'): Repository => ({
  id: name,
  full_name: `octo/${name}`,
  git_provider: 'github',
  is_public: true,
  main_branch: main,
});
const first = { repositories: [repo('app')], nextPage: 2 };
const last = { repositories: [repo('docs')], nextPage: null };
const branches = [
  { name: 'develop', commit_sha: 'a', protected: false },
  { name: 'main', commit_sha: 'b', protected: true },
];
const failure = Object.assign(new Error('GitHub rejected the token.'), { status: 403 });
const events: AnyEventObject[] = [
  { type: 'TYPE', query: 'ap' },
  { type: 'TYPE', query: '  ' },
  { type: 'xstate.after.searchDebounce.repositoryPicker.choosing.waiting' },
  { type: 'MORE' },
  { type: 'PICK', repository: repo('app') },
  { type: 'PICK_BRANCH', branch: 'develop' },
  { type: 'CLEAR' },
  { type: 'RETRY' },
  { type: 'xstate.done.actor.loadPage', output: first },
  { type: 'xstate.done.actor.loadPage', output: last },
  { type: 'xstate.error.actor.loadPage', error: failure },
  { type: 'xstate.done.actor.search', output: [repo('app'), repo('apex', null)] },
  { type: 'xstate.error.actor.search', error: failure },
  { type: 'xstate.done.actor.loadBranches', output: branches },
  { type: 'xstate.error.actor.loadBranches', error: failure },
];
const fakes: FakeSideEffects = { promises: ['loadPage', 'search', 'loadBranches'], callbacks: {}, actions: [] };

function expectSideEffects({ event, before, after, started }: StepRecord) {
  // What is asked of the server, and with what.
  for (const { src, input } of started) {
    if (src === 'loadPage') expect(input).toEqual({ page: event.type === 'MORE' ? before.context.nextPage : 1 });
    if (src === 'search') expect(input).toEqual({ query: after.context.query.trim() });
    if (src === 'loadBranches') expect(input).toEqual({ repository: after.context.selected?.full_name });
  }
  // Typing does not ask at once: only the pause does.
  if (event.type === 'TYPE') expect(started.filter((s) => s.src === 'search')).toEqual([]);
  if (event.type === 'MORE' && before.context.nextPage === null) expect(started).toEqual([]);
  if (event.type === 'xstate.done.actor.loadBranches')
    // The repository's main branch is chosen when it has one.
    expect(after.context.branch).toBe(after.context.selected?.main_branch === 'main' ? 'main' : 'develop');
  if (event.type === 'CLEAR') expect(after.context.selected).toBeNull();
  // Each repository is listed once, however the pages overlap.
  const ids = after.context.repositories.map((r: Repository) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
}

const coverage = new Coverage(repositoryPickerMachine);
const paths = withoutPrefixPaths(pathsThroughEveryEdge(repositoryPickerMachine, { events }));

describe('repository picker machine, every edge of its graph', () => {
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    await runPath(repositoryPickerMachine, path, { fakes, coverage, expectStep: expectSideEffects });
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(paths.length)));
});
