import { assign, setup, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import { notProvidedPromise } from './not-provided.ts';

// The home page's repository and branch pickers (a conversation starts on a repository). The user's repositories on the chosen
// provider load a page at a time (30, the next page as the server's Link header names it); typing
// searches the provider once the typing pauses for 300 ms (an empty box lists the repositories
// again); picking a repository loads its branches and selects its main branch. A failed load
// says why and can be retried.

export type Repository = components['schemas']['Repository'];
export type Branch = components['schemas']['Branch'];

/** The search asks once typing pauses this long (our choice: the spec gives no figure). */
export const SEARCH_DEBOUNCE_MS = 300;

export interface RepositoryPage {
  repositories: Repository[];
  nextPage: number | null;
}

interface RepositoryPickerContext {
  query: string;
  repositories: Repository[];
  nextPage: number | null;
  selected: Repository | null;
  branches: Branch[];
  branch: string | null;
  failure: unknown;
}

export type RepositoryPickerEvent =
  | { type: 'TYPE'; query: string }
  | { type: 'MORE' }
  | { type: 'PICK'; repository: Repository }
  | { type: 'PICK_BRANCH'; branch: string }
  | { type: 'CLEAR' }
  | { type: 'RETRY' };

const EMPTY = { repositories: [], nextPage: null, failure: null };

export const repositoryPickerMachine = setup({
  types: { context: {} as RepositoryPickerContext, events: {} as RepositoryPickerEvent },
  actors: {
    /** GET /api/user/repositories?page=… */
    loadPage: notProvidedPromise<RepositoryPage, { page: number }>('loadPage'),
    /** GET /api/user/search/repositories?query=… */
    search: notProvidedPromise<Repository[], { query: string }>('search'),
    /** GET /api/user/repository/branches?repository=… */
    loadBranches: notProvidedPromise<Branch[], { repository: string }>('loadBranches'),
  },
  actions: {
    rememberQuery: assign((_, query: string) => ({ query })),
    // A repository pushed to while paging moves up a page: one already listed is not listed twice.
    showPage: assign(({ context }, page: RepositoryPage) => ({
      repositories: [
        ...context.repositories,
        ...page.repositories.filter((r) => !context.repositories.some((known) => known.id === r.id)),
      ],
      nextPage: page.nextPage,
      failure: null,
    })),
    showFound: assign((_, repositories: Repository[]) => ({ repositories, nextPage: null, failure: null })),
    clearList: assign(EMPTY),
    rememberFailure: assign((_, failure: unknown) => ({ failure })),
    pick: assign((_, repository: Repository) => ({ selected: repository, branches: [], branch: null, failure: null })),
    showBranches: assign(({ context }, branches: Branch[]) => ({
      branches,
      // The repository's main branch when it has one, else its first.
      branch: branches.find((b) => b.name === context.selected?.main_branch)?.name ?? branches[0]?.name ?? null,
      failure: null,
    })),
    pickBranch: assign((_, branch: string) => ({ branch })),
    unpick: assign({ selected: null, branches: [], branch: null }),
  },
  guards: {
    emptyQuery: (_, query: string) => query.trim() === '',
    hasNextPage: ({ context }) => context.nextPage !== null,
    searching: ({ context }) => context.query.trim() !== '',
  },
  delays: { searchDebounce: SEARCH_DEBOUNCE_MS },
}).createMachine({
  id: 'repositoryPicker',
  context: { query: '', ...EMPTY, selected: null, branches: [], branch: null },
  initial: 'choosing',
  states: {
    choosing: {
      initial: 'listing',
      on: {
        TYPE: [
          {
            guard: { type: 'emptyQuery', params: ({ event }) => event.query },
            target: '.listing',
            actions: [{ type: 'rememberQuery', params: ({ event }) => event.query }, 'clearList'],
          },
          {
            target: '.waiting',
            reenter: true,
            actions: { type: 'rememberQuery', params: ({ event }) => event.query },
          },
        ],
        PICK: { target: 'picked', actions: { type: 'pick', params: ({ event }) => event.repository } },
      },
      states: {
        listing: {
          invoke: {
            id: 'loadPage',
            src: 'loadPage',
            input: { page: 1 },
            onDone: { target: 'ready', actions: { type: 'showPage', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'rememberFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            },
          },
        },
        waiting: {
          after: { searchDebounce: 'searching' },
        },
        searching: {
          invoke: {
            id: 'search',
            src: 'search',
            input: ({ context }) => ({ query: context.query.trim() }),
            onDone: { target: 'ready', actions: { type: 'showFound', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'rememberFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            },
          },
        },
        ready: {
          on: { MORE: { guard: 'hasNextPage', target: 'loadingMore' } },
        },
        loadingMore: {
          invoke: {
            id: 'loadPage',
            src: 'loadPage',
            input: ({ context }) => ({ page: context.nextPage ?? 1 }),
            onDone: { target: 'ready', actions: { type: 'showPage', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'rememberFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            },
          },
        },
        failed: {
          on: {
            RETRY: [
              { guard: 'searching', target: 'searching' },
              { target: 'listing', actions: 'clearList' },
            ],
          },
        },
      },
    },
    picked: {
      initial: 'loadingBranches',
      on: {
        // Back to the list as it was.
        CLEAR: { target: 'choosing.ready', actions: 'unpick' },
      },
      states: {
        loadingBranches: {
          invoke: {
            id: 'loadBranches',
            src: 'loadBranches',
            input: ({ context }) => ({ repository: context.selected?.full_name ?? '' }),
            onDone: { target: 'ready', actions: { type: 'showBranches', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'rememberFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            },
          },
        },
        ready: {
          on: { PICK_BRANCH: { actions: { type: 'pickBranch', params: ({ event }) => event.branch } } },
        },
        failed: {
          on: { RETRY: 'loadingBranches' },
        },
      },
    },
  },
});

export type RepositoryPickerSnapshot = SnapshotFrom<typeof repositoryPickerMachine>;
export const selectRepositories = (s: RepositoryPickerSnapshot) => s.context.repositories;
export const selectLoading = (s: RepositoryPickerSnapshot) =>
  s.matches({ choosing: 'listing' }) || s.matches({ choosing: 'waiting' }) || s.matches({ choosing: 'searching' });
export const selectLoadingMore = (s: RepositoryPickerSnapshot) => s.matches({ choosing: 'loadingMore' });
export const selectCanLoadMore = (s: RepositoryPickerSnapshot) =>
  s.matches({ choosing: 'ready' }) && s.context.nextPage !== null;
export const selectFailure = (s: RepositoryPickerSnapshot) =>
  s.matches({ choosing: 'failed' }) || s.matches({ picked: 'failed' }) ? s.context.failure : null;
export const selectPicked = (s: RepositoryPickerSnapshot) =>
  s.matches('picked')
    ? {
        repository: s.context.selected as Repository,
        branches: s.context.branches,
        branch: s.context.branch,
        loadingBranches: s.matches({ picked: 'loadingBranches' }),
      }
    : null;
